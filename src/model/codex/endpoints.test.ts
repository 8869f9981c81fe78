import { describe, expect, it } from 'vitest';
import { CODEX_CALLBACK_PORTS, codexCallbackPortsFromEnv } from './endpoints.js';

const TEST_ORIGIN = { HELIX_CODEX_TEST_ORIGIN: 'http://127.0.0.1:4455' };

describe('the loopback callback ports a login tries', () => {
  it('are 1455 then 1457 unless a test harness with its own issuer names others', () => {
    expect(codexCallbackPortsFromEnv({})).toEqual([1455, 1457]);
    expect(codexCallbackPortsFromEnv({ HELIX_CODEX_TEST_CALLBACK_PORTS: ' ' })).toBe(CODEX_CALLBACK_PORTS);
    expect(codexCallbackPortsFromEnv({ ...TEST_ORIGIN })).toEqual([1455, 1457]);
    expect(codexCallbackPortsFromEnv({ ...TEST_ORIGIN, HELIX_CODEX_TEST_CALLBACK_PORTS: '0' })).toEqual([0]);
    // Parsed only, never bound here (test/fixedPorts.test.ts reports literal ports in such variables).
    const held = 41_001;
    expect(codexCallbackPortsFromEnv({ ...TEST_ORIGIN, HELIX_CODEX_TEST_CALLBACK_PORTS: `${held}, 0` })).toEqual([
      held,
      0,
    ]);
  });

  it('refuses an override the real issuer would not redirect to, production, and anything not a port list', () => {
    expect(() => codexCallbackPortsFromEnv({ HELIX_CODEX_TEST_CALLBACK_PORTS: '0' })).toThrow(
      /needs HELIX_CODEX_TEST_ORIGIN: the real issuer only redirects to ports 1455 and 1457/,
    );
    expect(() =>
      codexCallbackPortsFromEnv({ ...TEST_ORIGIN, NODE_ENV: 'production', HELIX_CODEX_TEST_CALLBACK_PORTS: '0' }),
    ).toThrow(/refused in production/);
    for (const bad of ['abc', '1455;1457', '-1', '65536', '1455,', '0x10'])
      expect(() => codexCallbackPortsFromEnv({ ...TEST_ORIGIN, HELIX_CODEX_TEST_CALLBACK_PORTS: bad }), bad).toThrow(
        /comma-separated list of TCP ports/,
      );
  });
});
