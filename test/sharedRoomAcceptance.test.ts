import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HARNESS_SETTINGS } from '../scripts/sharedRoomAcceptance/config.js';
import type { AcceptanceReport } from '../scripts/sharedRoomAcceptance/report.js';
import { startTestHelix, type TestHelix } from './support/harness.js';
import { runReportingScript } from './support/probeProcess.js';
import { spawnTs } from './support/processes.js';
import { startRoomFacadeFixture, type Behaviour, type Route } from './support/roomFacadeFixture.js';
import { storedRuns } from './support/storedRuns.js';
import { storeFlavours } from './support/stores.js';
import { ceilingFor } from './support/ceilings.js';

/**
 * `npm run helix:shared-room:live-acceptance` as a process. The network tests run it against a
 * loopback stand-in of the room REST facade (test/support/roomFacadeFixture.ts) that forwards
 * /api/v1/agent-runs to a real Helix: the stand-in can lose responses and fail on cue. The run
 * against the real facade under `helix serve` is test/sharedRoomAcceptance.serve.test.ts.
 */
const SCRIPT = 'scripts/sharedRoomAcceptance.ts';
const S = HARNESS_SETTINGS;
/** Every harness variable blanked, so the developer's own environment cannot leak in. */
const CLEAN = Object.fromEntries(Object.values(S).map((name) => [name, '']));

const harness = (env: Record<string, string>) =>
  runReportingScript(SCRIPT, { ...CLEAN, ...env }, (report: AcceptanceReport) => report.steps);

const READ_ONLY = ['rooms.protected_resource_metadata', 'rooms.unauthenticated_challenge', 'rooms.list'];
const MUTATION = [
  'room.create',
  'room.create_replay',
  'room.inspect',
  'run.start',
  'room.bind_run',
  'room.bind_run_retry',
  'room.unbind_run',
  'room.unbind_run_again',
  'room.rebind_run',
  'room.command_disabled',
  'cleanup.unbind_run',
  'cleanup.cancel_run',
];

describe('live acceptance harness: dry run (HAR-02, HAR-10)', () => {
  it('with no variables: prints the typed plan, requests nothing and exits 0', async () => {
    const run = await harness({});
    expect(run.code, run.stderr).toBe(0);
    const report = run.report!;
    expect(report).toMatchObject({
      schema: 'helix.shared_live_room.live_acceptance.v1',
      mode: 'dry_run',
      target: 'http://127.0.0.1:1522',
      complete: false,
      retained_room_id: null,
      cleanup: { status: 'not_run' },
      settings: { network: false, access_token: 'not_configured', allow_mutation: false },
    });
    expect(report.steps.map((s) => s.id)).toEqual([
      'rooms.protected_resource_metadata',
      'rooms.protected_resource_metadata.authorization_servers',
      'rooms.unauthenticated_challenge',
      'rooms.list',
      ...MUTATION,
    ]);
    expect(report.steps.find((s) => s.id === 'room.command_disabled')).toMatchObject({
      method: 'POST',
      path: '/api/v1/rooms/{room_id}/commands',
      status: 'not_configured',
    });
    expect(report.steps.filter((s) => s.status === 'planned').map((s) => s.id)).toEqual([
      'rooms.protected_resource_metadata',
      'rooms.protected_resource_metadata.authorization_servers',
      'rooms.unauthenticated_challenge',
    ]);
    expect(report.manual_checkpoints.length).toBeGreaterThanOrEqual(6);
    expect(report.manual_checkpoints.every((c) => c.status === 'not_automated')).toBe(true);
    expect(report.to_complete).toContain(`${S.network}=1 (bounded network requests)`);
    expect(run.stderr).toContain('shared room live acceptance (dry_run)');
  });

  it('with REQUIRE_COMPLETE=1 a dry run is partial and exits 3', async () => {
    const run = await harness({ [S.requireComplete]: '1' });
    expect(run.code).toBe(3);
    expect(run.report?.complete).toBe(false);
  });

  it('sends nothing to a configured target without the network opt-in, and never prints the token', async () => {
    const token = 'hlx_dryRunTokenNeverPrinted0123456789';
    const fixture = await startRoomFacadeFixture({ token, helixUrl: 'http://127.0.0.1:9' });
    try {
      const run = await harness({
        [S.baseUrl]: fixture.url,
        [S.allowLoopbackHttp]: '1',
        [S.accessToken]: token,
        [S.allowMutation]: '1',
      });
      expect(run.code).toBe(0);
      expect(run.report?.steps.every((s) => s.status === 'planned')).toBe(true);
      expect(run.report?.settings.access_token).toBe('configured');
      expect(fixture.seen).toEqual([]);
      expect(run.stdout + run.stderr).not.toContain(token);
    } finally {
      await fixture.close();
    }
  });

  it.each<[string, Record<string, string>, string]>([
    ['an out-of-range timeout', { [S.timeoutMs]: '500' }, S.timeoutMs],
    ['a malformed total', { [S.totalTimeoutMs]: 'ten minutes' }, S.totalTimeoutMs],
    ['plain http to another host', { [S.baseUrl]: 'http://192.0.2.1', [S.allowLoopbackHttp]: '1' }, S.baseUrl],
  ])('refuses %s with exit 2 and prints no report', async (_label, env, variable) => {
    const run = await harness(env);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(variable);
  });

  it('takes no arguments (a bearer never goes in argv), exit 2', { timeout: ceilingFor(1) }, async () => {
    const child = spawnTs(SCRIPT, ['--token=hlx_argvTokenNeverEchoed0123456789'], CLEAN);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('[unexpected_arguments]');
    expect(stderr).not.toContain('hlx_argvTokenNeverEchoed');
  });
});

describe('live acceptance harness: network mode against a room facade stand-in and a real Helix', () => {
  let h: TestHelix;
  let token: string;
  let fixture: Awaited<ReturnType<typeof startRoomFacadeFixture>> | undefined;

  beforeAll(async () => {
    h = await startTestHelix(storeFlavours().find((f) => f.name === 'sqlite')!);
    token = await h.key();
  });
  afterAll(async () => {
    await h.close();
  });
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  const facade = async (script: Partial<Record<Route, readonly Behaviour[]>> = {}) => {
    fixture = await startRoomFacadeFixture({ token, helixUrl: h.url, script });
    return fixture;
  };

  const network = (url: string, extra: Record<string, string> = {}) =>
    harness({
      [S.baseUrl]: url,
      [S.network]: '1',
      [S.allowLoopbackHttp]: '1',
      [S.accessToken]: token,
      [S.allowMutation]: '1',
      ...extra,
    });

  const newRuns = async (before: Set<string>) => (await storedRuns(h)).filter((r) => !before.has(r.runId));
  const runIds = async () => new Set((await storedRuns(h)).map((r) => r.runId));

  it('passes every automated step, cleans up, and replays the one retained room on the next invocation', async () => {
    const room = await facade();
    const before = await runIds();
    const run = await network(room.url, { [S.requireComplete]: '1' });
    expect(run.code, run.stderr).toBe(0);
    for (const id of [...READ_ONLY, ...MUTATION]) expect(run.status(id), `${id}: ${run.detail(id)}`).toBe('passed');
    // No authorization server on a stand-in: legal, a warning, and still complete.
    expect(run.status('rooms.protected_resource_metadata.authorization_servers')).toBe('warning');
    expect(run.report).toMatchObject({
      mode: 'network',
      complete: true,
      retained_room_id: 'room_1',
      cleanup: { status: 'completed' },
    });
    expect(run.detail('room.create')).toBe('room room_1 created');
    // Both bindings the run made are withdrawn; the bound run is a real one, cancelled.
    expect([...room.bindings.values()].map((b) => [b.ref, b.active])).toEqual([
      ['rrb_1', false],
      ['rrb_2', false],
    ]);
    const created = await newRuns(before);
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ lifecycle: 'cancelled', maxSteps: 1, expiresInSeconds: 60, stepsUsed: 0 });
    expect(created[0]!.eventKinds).toEqual(['run.started', 'run.cancelled']);
    expect([...room.bindings.values()][0]!.runId).toBe(created[0]!.runId);
    // HAR-13: no cookie ever sent, the bearer only in the Authorization header, and never printed.
    expect(room.seen.some((r) => r.headers.cookie !== undefined)).toBe(false);
    expect(room.seen.some((r) => r.url.includes(token))).toBe(false);
    expect(run.stdout + run.stderr).not.toContain(token);

    // HAR-11: the caller-stable key replays the same room; the run key is fresh.
    const again = await network(room.url);
    expect(again.code, again.stderr).toBe(0);
    expect(again.detail('room.create')).toBe('room room_1 replayed from an earlier invocation');
    expect(again.report?.retained_room_id).toBe('room_1');
    expect(room.rooms.size).toBe(1);
    expect(await newRuns(before)).toHaveLength(2);
  });

  it('recovers lost responses by replaying the exact key or bind (HAR-12): one room, one run, cleanup confirmed', async () => {
    const room = await facade({
      'room.create': ['lose'],
      'run.start': ['lose'],
      'room.bind': ['lose'],
      'room.unbind': ['lose'],
      'run.cancel': ['lose'],
    });
    const before = await runIds();
    const run = await network(room.url);
    expect(run.code, run.stderr).toBe(0);
    for (const id of [...READ_ONLY, ...MUTATION]) expect(run.status(id), `${id}: ${run.detail(id)}`).toBe('passed');
    for (const id of ['room.create', 'run.start', 'room.bind_run', 'room.unbind_run'])
      expect(run.detail(id), id).toMatch(/^response lost \(.+\); replayed the exact request: /);
    expect(run.detail('cleanup.cancel_run')).toMatch(/^retried once after .+; run run_\S+ cancelled$/);
    expect(run.report?.cleanup.status).toBe('completed');
    expect(room.rooms.size).toBe(1);
    expect(room.bindings.size).toBe(2);
    const created = await newRuns(before);
    expect(created).toHaveLength(1);
    expect(created[0]!.lifecycle).toBe('cancelled');
  });

  it('a start whose outcome stays unknown is recovered at cleanup and cancelled; the run still fails', async () => {
    const room = await facade({ 'run.start': ['lose', 'lose'] });
    const before = await runIds();
    const run = await network(room.url);
    expect(run.code).toBe(1);
    expect(run.status('run.start')).toBe('failed');
    expect(run.status('room.bind_run')).toBe('skipped');
    expect(run.status('room.command_disabled')).toBe('passed');
    expect(run.detail('cleanup.cancel_run')).toMatch(
      /^run (run_\S+) recovered by replaying the exact start key; run \1 cancelled$/,
    );
    expect(run.report?.cleanup.status).toBe('completed');
    const created = await newRuns(before);
    expect(created).toHaveLength(1);
    expect(created[0]!.lifecycle).toBe('cancelled');
  });

  it('a withdrawal that fails at cleanup, even retried once, is a release failure: exit 1', async () => {
    // The two withdrawals of the automated steps pass; both cleanup attempts answer 500.
    const room = await facade({ 'room.unbind': ['ok', 'ok', 'fail', 'fail'] });
    const before = await runIds();
    const run = await network(room.url);
    expect(run.code).toBe(1);
    for (const id of MUTATION.slice(0, -2)) expect(run.status(id), `${id}: ${run.detail(id)}`).toBe('passed');
    expect(run.status('cleanup.unbind_run')).toBe('failed');
    expect(run.detail('cleanup.unbind_run')).toBe(
      'retried once after HTTP 500; HTTP 500 internal_error (internal_error), expected 200',
    );
    expect(run.report?.cleanup).toEqual({
      status: 'failed',
      detail: 'release failure: cleanup.unbind_run did not complete',
    });
    expect(run.report?.complete).toBe(false);
    expect(room.bindings.get('rrb_2')?.active).toBe(true);
    // The run is still cancelled: one cleanup failure does not stop the other.
    expect(run.status('cleanup.cancel_run')).toBe('passed');
    expect((await newRuns(before))[0]!.lifecycle).toBe('cancelled');
  });

  it('a cancellation that answers outcome_unknown is a release failure, not retried into success', async () => {
    const room = await facade({ 'run.cancel': ['unknown'] });
    const before = await runIds();
    const run = await network(room.url);
    expect(run.code).toBe(1);
    expect(run.status('cleanup.unbind_run')).toBe('passed');
    expect(run.status('cleanup.cancel_run')).toBe('failed');
    expect(run.detail('cleanup.cancel_run')).toBe('HTTP 409 outcome_unknown (outcome_unknown), expected 200');
    expect(run.report?.cleanup.status).toBe('failed');
    // The stand-in never forwarded the cancel: the run is honestly left waiting, and reported so.
    expect((await newRuns(before))[0]!.lifecycle).toBe('waiting');
  });

  it('bounds every request: a command that never answers fails after the request timeout and cleanup still runs', async () => {
    const room = await facade({ 'room.command': ['hang'] });
    const run = await network(room.url, { [S.timeoutMs]: '1000' });
    expect(run.code).toBe(1);
    expect(run.status('room.command_disabled')).toBe('failed');
    expect(run.detail('room.command_disabled')).toBe('request timed out');
    expect(run.report?.cleanup.status).toBe('completed');
  });

  it('read-only without the mutation opt-in: no POST or DELETE reaches the target; partial, so exit 3 under REQUIRE_COMPLETE', async () => {
    const room = await facade();
    const run = await harness({
      [S.baseUrl]: room.url,
      [S.network]: '1',
      [S.allowLoopbackHttp]: '1',
      [S.accessToken]: token,
      [S.requireComplete]: '1',
    });
    expect(run.code).toBe(3);
    for (const id of READ_ONLY) expect(run.status(id), `${id}: ${run.detail(id)}`).toBe('passed');
    for (const id of MUTATION) expect(run.status(id)).toBe('not_configured');
    expect(run.report?.cleanup.status).toBe('not_needed');
    expect(room.seen.map((r) => r.method).every((m) => m === 'GET')).toBe(true);
    // The unauthenticated challenge is the one request without the bearer.
    expect(room.seen.filter((r) => r.headers.authorization === undefined).map((r) => r.url)).toEqual([
      '/.well-known/oauth-protected-resource/api/v1/rooms',
      '/api/v1/rooms',
    ]);
  });

  it('refuses plain http to loopback without the opt-in before any request (HAR-05)', async () => {
    const room = await facade();
    const run = await harness({ [S.baseUrl]: room.url, [S.network]: '1', [S.accessToken]: token });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('[loopback_http_not_opted_in]');
    expect(room.seen).toEqual([]);
  });
});
