import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ProbeContext } from '../deploymentProbe/guardedFetch.js';

/**
 * The official SDK client for the target's /mcp, not yet connected. The bearer travels only in
 * the Authorization header, and only to the target origin (the guarded fetch refuses any other).
 */
export const mcpSession = (ctx: ProbeContext, token: string) => ({
  client: new Client({ name: 'helix-provider-conformance', version: '1.0.0' }),
  transport: new StreamableHTTPClientTransport(new URL('/mcp', ctx.target), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    fetch: ctx.fetch,
  }),
});
