import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorBody } from '../../api/errorBody.js';
import type { HelixError } from '../../domain/errors.js';
import { bearerChallenge } from '../challenge.js';

/** A successful tool result: the same JSON as text and as structuredContent. */
export const successResult = (body: unknown, replayed: boolean | undefined): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(body) }],
  structuredContent: body as Record<string, unknown>,
  ...(replayed === undefined ? {} : { _meta: { 'helix/idempotency_replayed': replayed } }),
});

/**
 * A failed tool call: `isError` with a structured `helix.agent_api.error.v1` (carrying its ADR-0004
 * number). A missing scope also carries the RFC 6750 challenge in `_meta["mcp/www_authenticate"]`
 * so the client can step up authorization for exactly that tool.
 */
export const errorResult = (err: HelixError, resourceMetadataUrl: string): CallToolResult => {
  const body = errorBody(err);
  const challenge = err.code === 'insufficient_scope' ? bearerChallenge(err, resourceMetadataUrl) : undefined;
  return {
    isError: true,
    content: [{ type: 'text', text: JSON.stringify(body) }],
    structuredContent: body,
    ...(challenge === undefined ? {} : { _meta: { 'mcp/www_authenticate': [challenge] } }),
  };
};
