import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HelixApiError, HelixContractError } from '../src/client/clientErrors.js';
import { HelixRestClient } from '../src/client/restClient.js';
import { ScriptedExecutor } from '../src/solver/scriptedExecutor.js';
import { groundedTurn, LIBRARY_SCOPES } from './support/groundedTurn.js';
import { idemKey, startTestHelix, type TestHelix } from './support/harness.js';
import { runCli } from './support/processes.js';
import { storeFlavours } from './support/stores.js';
import { ceilingFor } from './support/ceilings.js';

describe.each(storeFlavours())('the typed REST client against a real Helix on $name', (flavour) => {
  let h: TestHelix;
  let client: HelixRestClient;
  beforeAll(async () => {
    h = await startTestHelix(flavour, {
      executor: new ScriptedExecutor([groundedTurn()]),
      env: { HELIX_AGENT_DATABASE_SCOPES: 'research_library' },
    });
    client = new HelixRestClient(h.url, await h.key(LIBRARY_SCOPES));
  });
  afterAll(async () => h.close());

  it('start, continue, inspect, events, evidence: every answer parsed against its output schema', async () => {
    const started = await client.start({
      objective: 'How does the mechanism work?',
      database_scope: ['research_library'],
    });
    expect(started).toMatchObject({ schema: 'helix.agent_run.v1', version: 1, lifecycle_status: 'waiting' });
    // Defaults the client may omit are filled in by the server and come back typed.
    expect(started.budget.max_steps).toBe(12);

    const continued = await client.continue(started.run_id, { expected_version: 1, instruction: 'Find the mechanism' });
    expect(continued).toMatchObject({ version: 3, completion_status: 'completed', recommended_next_action: 'stop' });
    expect((await client.inspect(started.run_id)).version).toBe(3);

    const page = await client.events(started.run_id, { after_seq: 1, limit: 2 });
    expect(page.events.map((e) => e.seq)).toEqual([2, 3]);
    expect(page.has_more).toBe(true);

    const evidence = await client.evidence(started.run_id);
    expect(evidence.evidence_refs).toHaveLength(2);
    expect(evidence.terminal_authority_status).toBe('authorized');
  });

  it('cancel, and a retried mutation with the same Idempotency-Key replays instead of acting twice', async () => {
    const started = await client.start({ objective: 'Cancel me' });
    const key = idemKey('cancel');
    const cancelled = await client.cancel(
      started.run_id,
      { expected_version: 1, reason: 'done' },
      { idempotencyKey: key },
    );
    expect(cancelled).toMatchObject({ lifecycle_status: 'cancelled', version: 2 });
    const replayed = await client.cancel(
      started.run_id,
      { expected_version: 1, reason: 'done' },
      { idempotencyKey: key },
    );
    expect(replayed).toEqual(cancelled);
  });

  it('a refusal is a HelixApiError carrying the helix.agent_api.error.v1 body and its ADR-0004 number', async () => {
    const started = await client.start({ objective: 'Stale version' });
    const stale = await client.continue(started.run_id, { expected_version: 7, instruction: 'x' }).catch((e) => e);
    expect(stale).toBeInstanceOf(HelixApiError);
    expect(stale).toMatchObject({ status: 409, code: 'version_conflict', adrCode: -32011 });
    expect(stale.body).toMatchObject({ schema: 'helix.agent_api.error.v1', current_version: 1 });

    const stranger = await new HelixRestClient(h.url, 'hlx_not-a-real-key').inspect(started.run_id).catch((e) => e);
    expect(stranger).toMatchObject({ status: 401, code: 'invalid_token', adrCode: -32000 });
    const missing = await client.inspect('run_does-not-exist').catch((e) => e);
    expect(missing).toMatchObject({ status: 404, code: 'not_found', adrCode: undefined });
  });
});

describe('the typed REST client against a server off the contract', () => {
  let server: Server;
  let url: string;
  const answers: { status: number; body: string }[] = [];
  beforeAll(async () => {
    server = createServer((_req, res) => {
      const answer = answers.shift() ?? { status: 500, body: '' };
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    answers.length = 0;
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  const client = () => new HelixRestClient(url, 'hlx_token');

  it('a success body that misses contract fields is a HelixContractError naming them, not a run', async () => {
    answers.push({ status: 200, body: JSON.stringify({ schema: 'helix.agent_run.v1', run_id: 'run_abcdefgh' }) });
    const err = await client()
      .inspect('run_abcdefgh')
      .catch((e) => e);
    expect(err).toBeInstanceOf(HelixContractError);
    expect(err.status).toBe(200);
    expect(err.issues).toContain('version: Invalid input: expected number, received undefined');
  });

  it('a body that is not JSON, and an error status without an error body, are contract errors too', async () => {
    answers.push({ status: 200, body: '<html>proxy</html>' });
    expect(
      await client()
        .evidence('run_abcdefgh')
        .catch((e) => e),
    ).toMatchObject({ name: 'HelixContractError', issues: ['the body is not JSON'] });

    answers.push({ status: 409, body: JSON.stringify({ error: 'conflict' }) });
    const err = await client()
      .cancel('run_abcdefgh', { expected_version: 1 })
      .catch((e) => e);
    expect(err).toBeInstanceOf(HelixContractError);
    expect(err.status).toBe(409);
  });

  it('helix ask reports an off-contract server and a refusal with its code and ADR-0004 number', {
    timeout: ceilingFor(2),
  }, async () => {
    answers.push({ status: 201, body: JSON.stringify({ schema: 'not-helix' }) });
    const offContract = await runCli(['ask', 'anything', '--url', url], { HELIX_TOKEN: 'hlx_token' });
    expect(offContract.code).toBe(1);
    expect(offContract.stderr).toContain(`${url} is not a compatible Helix server`);

    const refusal = {
      schema: 'helix.agent_api.error.v1',
      code: 'insufficient_scope',
      message: 'The access token lacks a required scope.',
      status: 403,
      adr_code: -32001,
      scope: 'helix.agent_runs.write',
    };
    answers.push({ status: 403, body: JSON.stringify(refusal) });
    const refused = await runCli(['ask', 'anything', '--url', url], { HELIX_TOKEN: 'hlx_token' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'server answered 403 insufficient_scope (ADR-0004 -32001): The access token lacks a required scope.',
    );
  });
});
