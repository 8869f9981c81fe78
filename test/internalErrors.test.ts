import { afterEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/auth/apiKeys.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startHelix, type RunningHelix } from '../src/server.js';
import type { Store } from '../src/store/port.js';
import { api, ALL_RUN_SCOPES, idemKey, startTestHelix, type TestHelix } from './support/harness.js';
import { connectMcp } from './support/mcpClient.js';
import { storeFlavours, type TestStore } from './support/stores.js';

const RUNS = '/api/v1/agent-runs';
const DRIVER_TEXT = 'relation "helix_agent_runs" violates constraint xyz_secret_detail';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// Issue 11, item 9: a NUL in `objective` was a 500 on PostgreSQL (accepted on SQLite), and over MCP
// the driver's message reached the caller while nothing was logged.
describe.each(storeFlavours())('NUL characters on $name', (flavour) => {
  it('are refused as invalid_request over REST and MCP, identically on every store', async () => {
    const h: TestHelix = await startTestHelix(flavour);
    cleanups.push(() => h.close());
    const token = await h.key();
    for (const body of [{ objective: 'before\u0000after' }, { objective: 'ok', constraints: ['a\u0000b'] }]) {
      const res = await api(h.url, 'POST', RUNS, { token, idempotencyKey: idemKey(), body });
      expect(res.status, res.text).toBe(400);
      expect(res.body).toMatchObject({
        code: 'invalid_request',
        issues: [{ message: 'must not contain NUL characters' }],
      });
    }
    const client = await connectMcp(h.url, token);
    cleanups.push(() => client.close());
    const result = (await client.callTool({
      name: 'helix_run_start',
      arguments: { idempotency_key: idemKey(), request: { objective: 'x\u0000y' } },
    })) as {
      isError?: boolean;
      structuredContent?: { code: string };
    };
    expect(result.isError).toBe(true);
    expect(result.structuredContent?.code).toBe('invalid_request');
  });
});

describe('an unexpected failure inside an MCP tool call', () => {
  it('answers a static internal_error, never the underlying text, and logs it with the request id', async () => {
    const testStore: TestStore = await storeFlavours()[0]!.create();
    cleanups.push(() => testStore.dispose());
    // A store whose run lookups fail the way a driver does: with its own message.
    const failing: Store = new Proxy(testStore.store, {
      get(target, property, receiver) {
        if (property !== 'read') return Reflect.get(target, property, receiver);
        const read = target.read;
        return { ...read, runs: { ...read.runs, get: async () => Promise.reject(new Error(DRIVER_TEXT)) } };
      },
    });
    const lines: string[] = [];
    const helix: RunningHelix = await startHelix(loadConfig({}, { port: 0, host: '127.0.0.1' }), {
      store: failing,
      logger: createLogger('info', { write: (line: string) => void lines.push(line) }),
    });
    cleanups.push(() => helix.close());
    const { key } = await createApiKey(
      testStore.store,
      { tenantId: 't', accountId: 'a', scopes: ALL_RUN_SCOPES.split(' ') },
      Date.now(),
    );

    const client = await connectMcp(helix.url, key);
    cleanups.push(() => client.close());
    const result = (await client.callTool({ name: 'helix_run_inspect', arguments: { run_id: 'run_abcdefgh12' } })) as {
      isError?: boolean;
      content: { text: string }[];
      structuredContent?: Record<string, unknown>;
    };
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      code: 'internal_error',
      message: 'An internal error occurred.',
      status: 500,
    });
    expect(JSON.stringify(result)).not.toContain('xyz_secret_detail');
    const logged = lines
      .map((l) => JSON.parse(l) as { msg: string; request_id?: string; err?: { message: string } })
      .find((l) => l.msg === 'unhandled error in an MCP tool call');
    expect(logged?.err?.message).toBe(DRIVER_TEXT);
    expect(logged?.request_id).toMatch(/^req_/);

    // REST gives the same answer for the same failure.
    const rest = await api(helix.url, 'GET', `${RUNS}/run_abcdefgh12`, { token: key });
    expect(rest.status).toBe(500);
    expect(rest.text).not.toContain('xyz_secret_detail');
  });
});
