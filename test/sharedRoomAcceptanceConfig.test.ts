import { describe, expect, it } from 'vitest';
import { redactor } from '../scripts/deploymentProbe/redact.js';
import { check } from '../scripts/deploymentProbe/report.js';
import { ProbeConfigError, type ConfigErrorCode } from '../scripts/deploymentProbe/settings.js';
import {
  cleanupReserve,
  DEFAULT_ROOM_IDEMPOTENCY_KEY,
  HARNESS_SETTINGS,
  readHarnessConfig,
} from '../scripts/sharedRoomAcceptance/config.js';
import { STEPS } from '../scripts/sharedRoomAcceptance/plan.js';
import { acceptanceExitCode, buildAcceptanceReport } from '../scripts/sharedRoomAcceptance/report.js';

const S = HARNESS_SETTINGS;
const TOKEN = 'hlx_acceptanceTestToken0123456789abcdef';
const NOW = new Date('2026-12-01T12:00:00Z');

/** The refusal readHarnessConfig raises for `env`: its code and message. */
const refusal = (env: Record<string, string>): { code: ConfigErrorCode; message: string } => {
  try {
    readHarnessConfig(env);
  } catch (err) {
    if (err instanceof ProbeConfigError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('the configuration was accepted');
};

describe('live acceptance harness configuration (HAR-03..HAR-11, D-08)', () => {
  it('defaults: the loopback keyed server, a dry run, 30 s per request, 600 s in total with a cleanup window, the stable room key', () => {
    const config = readHarnessConfig({});
    expect(config).toMatchObject({
      target: 'http://127.0.0.1:1522',
      network: false,
      loopbackHttpNeedsOptIn: true,
      accessToken: undefined,
      allowMutation: false,
      requireComplete: false,
      timeoutMs: 30_000,
      totalTimeoutMs: 600_000,
      cleanupReserveMs: 120_000,
      roomIdempotencyKey: DEFAULT_ROOM_IDEMPOTENCY_KEY,
      roomIdempotencyKeySource: 'default',
      secrets: [],
    });
  });

  it('reads every variable; the token becomes a secret to redact', () => {
    const config = readHarnessConfig({
      [S.baseUrl]: 'https://helix.example',
      [S.network]: '1',
      [S.accessToken]: TOKEN,
      [S.allowMutation]: '1',
      [S.requireComplete]: '1',
      [S.timeoutMs]: '1000',
      [S.totalTimeoutMs]: '3600000',
      [S.roomIdempotencyKey]: 'release-2026-12',
    });
    expect(config).toMatchObject({
      target: 'https://helix.example',
      network: true,
      allowMutation: true,
      requireComplete: true,
      timeoutMs: 1000,
      totalTimeoutMs: 3_600_000,
      cleanupReserveMs: 4000,
      roomIdempotencyKey: 'release-2026-12',
      roomIdempotencyKeySource: 'override',
      secrets: [TOKEN],
    });
  });

  it('accepts only the HELIX_SHARED_ROOM_ACCEPTANCE_ names: the probe CASIMIRBOT_ variables do not configure the harness', () => {
    const config = readHarnessConfig({
      CASIMIRBOT_MCP_PUBLIC_BASE_URL: 'https://casimirbot.com',
      CASIMIRBOT_MCP_ACCESS_TOKEN: TOKEN,
    });
    expect(config.target).toBe('http://127.0.0.1:1522');
    expect(config.accessToken).toBeUndefined();
  });

  it('loopback rule: plain http to loopback needs the opt-in for the network, and never reaches another host', () => {
    expect(refusal({ [S.network]: '1' })).toEqual({
      code: 'loopback_http_not_opted_in',
      message: `plain http to loopback host 127.0.0.1:1522 needs ${S.allowLoopbackHttp}=1`,
    });
    const admitted = readHarnessConfig({ [S.network]: '1', [S.allowLoopbackHttp]: '1' });
    expect(admitted).toMatchObject({ target: 'http://127.0.0.1:1522', loopbackHttpNeedsOptIn: false });
    expect(readHarnessConfig({ [S.baseUrl]: 'http://[::1]:8080', [S.allowLoopbackHttp]: '1' }).target).toBe(
      'http://[::1]:8080',
    );
    // Not even the dry run names a non-loopback plain-http target: the opt-in cannot admit it.
    for (const env of [
      { [S.baseUrl]: 'http://192.0.2.1' },
      { [S.baseUrl]: 'http://helix.example', [S.allowLoopbackHttp]: '1', [S.network]: '1' },
    ]) {
      expect(refusal(env).code).toBe('plain_http_not_loopback');
    }
  });

  it.each<[string, Record<string, string>, ConfigErrorCode, string]>([
    ['a URL with a path', { [S.baseUrl]: 'https://helix.example/api' }, 'target_not_origin', S.baseUrl],
    ['userinfo', { [S.baseUrl]: 'https://user:pw@helix.example' }, 'target_has_userinfo', S.baseUrl],
    ['another scheme', { [S.baseUrl]: 'ftp://helix.example' }, 'scheme_not_allowed', S.baseUrl],
    ['not a URL', { [S.baseUrl]: 'helix.example' }, 'target_invalid', S.baseUrl],
    ['a switch set to yes', { [S.network]: 'yes' }, 'invalid_opt_in', S.network],
    ['a mutation switch set to true', { [S.allowMutation]: 'true' }, 'invalid_opt_in', S.allowMutation],
    ['a timeout below 1,000', { [S.timeoutMs]: '999' }, 'invalid_number', S.timeoutMs],
    ['a timeout above 600,000', { [S.timeoutMs]: '600001' }, 'invalid_number', S.timeoutMs],
    ['a timeout with a unit', { [S.timeoutMs]: '10s' }, 'invalid_number', S.timeoutMs],
    ['a negative timeout', { [S.timeoutMs]: '-5000' }, 'invalid_number', S.timeoutMs],
    ['a total below 30,000', { [S.totalTimeoutMs]: '29999' }, 'invalid_number', S.totalTimeoutMs],
    ['a total above 3,600,000', { [S.totalTimeoutMs]: '3600001' }, 'invalid_number', S.totalTimeoutMs],
    ['a total in exponent form', { [S.totalTimeoutMs]: '6e5' }, 'invalid_number', S.totalTimeoutMs],
    ['a token with a space', { [S.accessToken]: 'not a token' }, 'invalid_access_token', S.accessToken],
    ['a 7-character room key', { [S.roomIdempotencyKey]: 'short-k' }, 'invalid_idempotency_key', S.roomIdempotencyKey],
    [
      'a room key with a space',
      { [S.roomIdempotencyKey]: 'room key 1' },
      'invalid_idempotency_key',
      S.roomIdempotencyKey,
    ],
    ['a credential as room key', { [S.roomIdempotencyKey]: TOKEN }, 'invalid_idempotency_key', S.roomIdempotencyKey],
  ])('refuses %s, naming the variable and not the value', (_label, env, code, variable) => {
    const { code: actual, message } = refusal(env);
    expect(actual).toBe(code);
    expect(message).toContain(variable);
    for (const value of Object.values(env)) if (value.length > 4) expect(message).not.toContain(value);
  });

  it('keeps a cleanup window of a third of the total, at most four request timeouts', () => {
    expect(cleanupReserve(600_000, 30_000)).toBe(120_000);
    expect(cleanupReserve(30_000, 600_000)).toBe(10_000);
    expect(cleanupReserve(3_600_000, 1_000)).toBe(4_000);
  });
});

describe('live acceptance report', () => {
  const networkConfig = readHarnessConfig({
    [S.network]: '1',
    [S.allowLoopbackHttp]: '1',
    [S.accessToken]: TOKEN,
    [S.allowMutation]: '1',
  });

  it('redacts the bearer wherever a detail carries it, and a credential-shaped identifier whole', () => {
    const checks = STEPS.map((s) => check(s.id, 'passed', 'ok'));
    checks[3] = check('rooms.list', 'failed', `the server echoed Bearer ${TOKEN} back`);
    const report = buildAcceptanceReport(
      networkConfig,
      { checks, roomId: 'hlx_roomIdThatLooksLikeAKey0123456789', cleanup: { status: 'completed', detail: '' } },
      NOW,
    );
    const redacted = JSON.stringify(redactor(networkConfig.secrets).redact(report));
    expect(redacted).not.toContain(TOKEN);
    expect(redacted).not.toContain('hlx_roomIdThatLooksLikeAKey');
    expect(redacted).toContain('"retained_room_id":"[redacted]"');
    expect(redacted).toContain('"access_token":"configured"');
  });

  it('is complete only when every automated step passed (warnings allowed) and cleanup succeeded', () => {
    const passing = STEPS.map((s) => check(s.id, s.id.endsWith('authorization_servers') ? 'warning' : 'passed', ''));
    const done = { checks: passing, roomId: 'room_1', cleanup: { status: 'completed' as const, detail: '' } };
    const complete = buildAcceptanceReport(networkConfig, done, NOW);
    expect(complete.complete).toBe(true);
    expect(acceptanceExitCode(complete, true)).toBe(0);

    const failedCleanup = buildAcceptanceReport(
      networkConfig,
      { ...done, cleanup: { status: 'failed', detail: 'release failure' } },
      NOW,
    );
    expect(failedCleanup.complete).toBe(false);
    expect(acceptanceExitCode(failedCleanup, false)).toBe(1);

    const partial = buildAcceptanceReport(networkConfig, { ...done, checks: passing.slice(0, 4) }, NOW);
    expect(partial.steps.find((s) => s.id === 'room.create')).toMatchObject({
      status: 'skipped',
      detail: 'not reached',
    });
    expect(partial.complete).toBe(false);
    expect(acceptanceExitCode(partial, false)).toBe(0);
    expect(acceptanceExitCode(partial, true)).toBe(3);
  });
});
