import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** The official SDK client over Streamable HTTP, authenticated with a bearer. */
export const connectMcp = async (baseUrl: string, token: string, path = '/mcp'): Promise<Client> => {
  const client = new Client({ name: 'helix-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}${path}`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
};

/** A raw JSON-RPC POST to /mcp, for envelope and HTTP-level checks the SDK client would not send. */
export const rawMcp = async (baseUrl: string, body: unknown, headers: Record<string, string> = {}, path = '/mcp') => {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: text === '' ? undefined : (JSON.parse(text) as any),
  };
};
