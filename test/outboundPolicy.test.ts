import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { PUBLIC_DNS, tableResolver } from './support/fakeDns.js';
import { api, idemKey, startTestHelix, type TestHelix } from './support/harness.js';
import { loopbackPeers } from './support/loopbackPeers.js';
import { startScriptedChatServer, type ScriptedChatServer } from './support/scriptedChatServer.js';
import { storeFlavours } from './support/stores.js';

/**
 * The outbound policy for owners' model providers, through the real server: where an owner may
 * point Helix (registration), where Helix then actually connects (every request), and what the
 * owner is told when nothing answers as a model should.
 */
const PROVIDERS = '/api/v1/model-providers';
const RUNS = '/api/v1/agent-runs';
const OWNER_SCOPES =
  'helix.agent_runs.read helix.agent_runs.write helix.model_providers.read helix.model_providers.write';
const [sqlite] = storeFlavours();

const loopback = loopbackPeers();
afterAll(() => loopback.close());

const register = (h: TestHelix, token: string, baseUrl: string) =>
  api(h.url, 'POST', PROVIDERS, { token, body: { kind: 'chat-completions', base_url: baseUrl, model: 'owner-model' } });

describe('registering a provider under the outbound policy', () => {
  let h: TestHelix;
  let owner: string;
  const dns = tableResolver({
    ...PUBLIC_DNS,
    'loopback.example': ['127.0.0.1'],
    'metadata.example': ['169.254.169.254'],
    'private-only.example': ['10.0.0.1', 'fd00::1', '::1'],
    'lan.example': ['10.1.2.3'],
    'next-lan.example': ['10.1.3.3'],
  });

  beforeAll(async () => {
    h = await startTestHelix(sqlite!, { resolveHost: dns, env: { HELIX_MODEL_PROVIDER_ALLOWED_CIDRS: '10.1.2.0/24' } });
    owner = await h.key(OWNER_SCOPES);
  });
  afterAll(async () => h?.close());

  const count = async () => (await api(h.url, 'GET', PROVIDERS, { token: owner })).body.providers.length as number;

  it.each([
    ['http://127.0.0.1:11434/v1', 'loopback'],
    ['http://127.8.9.10/v1', 'loopback'],
    ['http://[::1]:8080/v1', 'loopback'],
    ['http://0.0.0.0:8080/v1', 'unspecified'],
    ['http://[::]:8080/v1', 'unspecified'],
    ['http://10.0.0.1/v1', 'private'],
    ['http://172.16.5.4/v1', 'private'],
    ['http://192.168.1.10/v1', 'private'],
    ['http://169.254.169.254/latest/meta-data', 'link-local'],
    ['http://[fe80::1]/v1', 'link-local'],
    ['http://[fd00:ec2::254]/v1', 'unique-local'],
    ['http://[fc00::1]/v1', 'unique-local'],
    ['http://100.100.100.200/v1', 'shared'],
    ['http://224.0.0.251/v1', 'multicast'],
    ['http://[ff02::1]/v1', 'multicast'],
    ['http://255.255.255.255/v1', 'reserved'],
    ['http://192.0.2.1/v1', 'documentation'],
    ['http://198.18.0.1/v1', 'benchmarking'],
    // IPv4-mapped IPv6 and the URL parser's numeric IPv4 spellings reach the same addresses.
    ['http://[::ffff:127.0.0.1]/v1', 'loopback'],
    ['http://[::ffff:a9fe:a9fe]/v1', 'link-local'],
    ['http://[64:ff9b::7f00:1]/v1', 'loopback'],
    ['http://2130706433/v1', 'loopback'],
    ['http://0x7f.1/v1', 'loopback'],
    ['http://0x7f000001/v1', 'loopback'],
    ['http://017700000001/v1', 'loopback'],
    ['http://127.1/v1', 'loopback'],
    ['http://2852039166/latest', 'link-local'],
    ['http://localhost:11434/v1', 'loopback'],
    ['http://LOCALHOST./v1', 'loopback'],
    ['http://ollama.localhost/v1', 'loopback'],
  ])('refuses %s (%s) with 400 provider_destination_refused, storing nothing', async (baseUrl, words) => {
    const before = await count();
    const res = await register(h, owner, baseUrl);
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ code: 'provider_destination_refused', status: 400 });
    expect(res.body.issues).toEqual([
      { path: 'base_url', message: expect.stringContaining(`names a ${words} address`) },
    ]);
    expect(await count()).toBe(before);
  });

  it.each([
    ['a name that resolves to loopback', 'https://loopback.example/v1'],
    ['a name that resolves to the metadata service', 'https://metadata.example/v1'],
    ['a name that resolves only to private addresses', 'https://private-only.example/v1'],
    ['a name next to the admitted range', 'https://next-lan.example/v1'],
    ['a name that does not resolve', 'https://missing.example/v1'],
  ])('refuses %s, with one answer that does not say which', async (_what, baseUrl) => {
    const res = await register(h, owner, baseUrl);
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('provider_destination_refused');
    expect(res.body.issues).toEqual([
      {
        path: 'base_url',
        message:
          "host does not resolve to an address owners' providers may use (a public address, or one in HELIX_MODEL_PROVIDER_ALLOWED_CIDRS)",
      },
    ]);
  });

  it('admits public destinations and exactly the range the operator admits', async () => {
    for (const baseUrl of [
      'https://api.openai.com/v1',
      'http://10.1.2.3/v1',
      'http://10.1.2.0/v1',
      'http://10.1.2.255/v1',
      'http://[::ffff:10.1.2.9]/v1',
      'https://lan.example/v1',
    ]) {
      expect((await register(h, owner, baseUrl)).status, baseUrl).toBe(201);
    }
    for (const baseUrl of ['http://10.1.1.255/v1', 'http://10.1.3.0/v1', 'http://10.0.0.1/v1']) {
      expect((await register(h, owner, baseUrl)).body.code, baseUrl).toBe('provider_destination_refused');
    }
  });

  it('keeps answering a malformed base URL as invalid_request', async () => {
    const res = await register(h, owner, 'http://user:pw@10.1.2.3/v1');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
  });
});

/** A run, its inspection and its events with ids and times replaced, so two runs can be compared byte for byte. */
const failedRun = async (h: TestHelix, token: string) => {
  const started = await api(h.url, 'POST', RUNS, {
    token,
    idempotencyKey: idemKey(),
    body: { objective: 'Summarize the damping notes.' },
  });
  expect(started.status, started.text).toBe(201);
  const runId: string = started.body.run_id;
  const turn = await api(h.url, 'POST', `${RUNS}/${runId}/continue`, {
    token,
    idempotencyKey: idemKey(),
    body: { expected_version: 1, instruction: 'Answer from the notes.' },
  });
  expect(turn.status, turn.text).toBe(200);
  const inspected = await api(h.url, 'GET', `${RUNS}/${runId}`, { token });
  const events = await api(h.url, 'GET', `${RUNS}/${runId}/events?limit=100`, { token });
  const text = JSON.stringify({ turn: turn.body, inspected: inspected.body, events: events.body })
    .split(runId)
    .join('<run>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>');
  return { view: turn.body, text };
};

describe('what an owner learns when its provider does not answer as a model (loopback admitted by the operator)', () => {
  let h: TestHelix;
  const lines: string[] = [];
  const peers: { name: string; baseUrl: string; reached: () => number }[] = [];

  beforeAll(async () => {
    const at = (peer: { port: number }): string => `http://127.0.0.1:${peer.port}/v1`;
    const closed = await loopback.closedPort();
    const notHttp = await loopback.notHttp('+OK redis-like banner\r\n-ERR unknown command\r\n');
    const failing = await loopback.answering(500, '{"error":{"message":"upstream down","type":"server_error"}}');
    peers.push(
      { name: 'a closed port', baseUrl: at(closed), reached: closed.reached },
      { name: 'a server that is not HTTP', baseUrl: at(notHttp), reached: notHttp.reached },
      { name: 'an HTTP server answering 500', baseUrl: at(failing), reached: failing.reached },
    );

    const logger = createLogger('debug', { write: (line: string) => void lines.push(line) });
    h = await startTestHelix(sqlite!, {
      logger,
      env: { HELIX_MODEL_PROVIDER_ALLOWED_CIDRS: '127.0.0.0/8', HELIX_LOG_LEVEL: 'debug' },
    });
  });
  afterAll(async () => h?.close());

  it('ends each run identically, apart from ids and times: model_unreachable, and nothing about ports, errors or statuses', async () => {
    const outcomes: string[] = [];
    // One owner, one registration at a time, so that nothing but the peer differs between the runs.
    const token = await h.key(OWNER_SCOPES);
    for (const peer of peers) {
      const registered = await register(h, token, peer.baseUrl);
      expect(registered.status, registered.text).toBe(201);
      const { view, text } = await failedRun(h, token);
      expect((await api(h.url, 'DELETE', `${PROVIDERS}/${registered.body.provider_id}`, { token })).status).toBe(204);
      expect(view.latest_result, peer.name).toMatchObject({ outcome: 'failed', failure_code: 'model_unreachable' });
      for (const telltale of [
        'ECONNREFUSED',
        'HPE_',
        '500',
        'server_error',
        'transport',
        'model_server',
        String(new URL(peer.baseUrl).port),
      ]) {
        // Opaque ids and hashes are random letters and digits: one may contain "500" or the port by chance.
        const visible = text.replace(/[A-Za-z0-9_-]{16,}/g, '<opaque>');
        expect(visible, `${peer.name}: ${telltale}`).not.toContain(telltale);
      }
      outcomes.push(text);
    }
    expect(outcomes[1]).toBe(outcomes[0]);
    expect(outcomes[2]).toBe(outcomes[0]);
    // The requests really went out: the peers that can count connections saw them.
    expect(peers[1]!.reached()).toBeGreaterThan(0);
    expect(peers[2]!.reached()).toBeGreaterThan(0);
    // What happened is in the server log, at debug level only.
    const reports = lines
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.msg === 'owner model provider unreachable');
    expect(reports.length).toBeGreaterThanOrEqual(3);
    expect(new Set(reports.map((entry) => entry.level))).toEqual(new Set([20]));
    expect(reports.some((entry) => entry.model_error.http_status === 500)).toBe(true);
    expect(reports.some((entry) => /ECONNREFUSED/.test(entry.model_error.message))).toBe(true);
  });
});

/**
 * Two scripted servers on one port, at 127.0.0.2 and 127.0.0.1. The OS picks the port for the
 * first; another program may already hold it on 127.0.0.1, so a taken port means pick again.
 */
const onePortOnTwoAddresses = async (): Promise<{ admitted: ScriptedChatServer; internal: ScriptedChatServer }> => {
  for (;;) {
    const admitted = await startScriptedChatServer([], { host: '127.0.0.2' });
    const port = Number(new URL(admitted.url).port);
    try {
      return { admitted, internal: await startScriptedChatServer([], { host: '127.0.0.1', port }) };
    } catch (err) {
      await admitted.close();
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    }
  }
};

describe('a provider name that resolves elsewhere after registration (DNS rebinding)', () => {
  let h: TestHelix;
  let admitted: ScriptedChatServer;
  let internal: ScriptedChatServer;
  let answer = '127.0.0.2';

  beforeAll(async () => {
    // One port on two loopback addresses; the operator admits only 127.0.0.2.
    ({ admitted, internal } = await onePortOnTwoAddresses());
    h = await startTestHelix(sqlite!, {
      resolveHost: tableResolver({ 'models.rebind.test': () => [answer] }),
      env: { HELIX_MODEL_PROVIDER_ALLOWED_CIDRS: '127.0.0.2/32' },
    });
  });
  afterAll(async () => {
    await h?.close();
    await admitted?.close();
    await internal?.close();
  });

  it('connects to the address the check admitted, and refuses once the name points at a refused one', async () => {
    const token = await h.key(OWNER_SCOPES);
    const port = new URL(admitted.url).port;
    expect((await register(h, token, `http://models.rebind.test:${port}/v1`)).status).toBe(201);

    // The name resolves nowhere outside this test's resolver: reaching 127.0.0.2 proves the pinning.
    admitted.push({ kind: 'text', text: 'No evidence to cite.' }, { kind: 'text', text: 'Still none.' });
    const first = await failedRun(h, token);
    expect(first.view.latest_result.failure_code).not.toBe('model_unreachable');
    expect(admitted.requests.length).toBeGreaterThan(0);

    answer = '127.0.0.1';
    const second = await failedRun(h, token);
    expect(second.view.latest_result).toMatchObject({ outcome: 'failed', failure_code: 'model_unreachable' });
    expect(internal.requests).toHaveLength(0);
  });
});
