import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startCodexAuthServer, type CodexAuthServer } from './codexAuthServer.js';
import { startResponsesFixtureServer, type ResponsesFixtureServer } from './responsesFixtureServer.js';

/**
 * One loopback origin that speaks every pinned Codex endpoint, as HELIX_CODEX_TEST_ORIGIN expects:
 * OAuth and device authorization (`/oauth/*`, `/api/accounts/*`, `/codex/device`) go to the auth
 * fixture, the Codex backend (`/backend-api/*`) to the Responses fixture. Answers pass through
 * untouched, redirects included, so the client's own redirect refusal is what is tested.
 */
export interface CodexFixture {
  readonly origin: string;
  readonly auth: CodexAuthServer;
  readonly backend: ResponsesFixtureServer;
  close(): Promise<void>;
}

const BACKEND_PREFIX = '/backend-api/';

export const startCodexFixture = async (): Promise<CodexFixture> => {
  const auth = await startCodexAuthServer();
  const backend = await startResponsesFixtureServer();
  const front = createServer((incoming, outgoing) => {
    const target = new URL((incoming.url ?? '/').startsWith(BACKEND_PREFIX) ? backend.origin : auth.origin);
    const forwarded = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const { port } = front.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    auth,
    backend,
    async close() {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await Promise.all([auth.close(), backend.close()]);
    },
  };
};
