import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCodexAuthServer, type CodexAuthServer } from '../../../test/support/codexAuthServer.js';
import { loginWithDevice, parsePollInterval, type DevicePrompt } from './deviceLogin.js';

let auth: CodexAuthServer;
beforeEach(async () => {
  auth = await startCodexAuthServer();
});
afterEach(async () => {
  await auth.close();
});

/** A clock that only moves when the login sleeps: polling time without waiting for it. */
const fakeTime = () => {
  let t = 1_700_000_000_000;
  const sleeps: number[] = [];
  return {
    now: () => t,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      t += ms;
    },
    sleeps,
  };
};

describe('device login', () => {
  it('shows the code, polls while pending, then exchanges with the device redirect', async () => {
    auth.device.pendingPolls = 2;
    auth.device.interval = '2';
    const time = fakeTime();
    const prompts: DevicePrompt[] = [];
    const tokens = await loginWithDevice({
      endpoints: { issuer: auth.origin, api: auth.origin },
      onPrompt: (p) => prompts.push(p),
      ...time,
    });
    expect(prompts).toEqual([{ verificationUrl: `${auth.origin}/codex/device`, userCode: 'ABCD-1234' }]);
    expect(time.sleeps).toEqual([2_500, 2_500]);
    expect(auth.requests.filter((r) => r.path === '/api/accounts/deviceauth/token')).toHaveLength(3);
    const [exchange] = auth.grants('authorization_code');
    expect(exchange?.fields.redirect_uri).toBe(`${auth.origin}/deviceauth/callback`);
    expect(tokens.accountId).toBe(auth.accountId);
  });

  it('treats 404 while polling as pending and accepts the `usercode` spelling', async () => {
    auth.device.pendingPolls = 1;
    auth.device.pendingStatus = 404;
    auth.device.codeField = 'usercode';
    auth.device.interval = undefined;
    const time = fakeTime();
    let code = '';
    await loginWithDevice({
      endpoints: { issuer: auth.origin, api: auth.origin },
      onPrompt: (p) => (code = p.userCode),
      ...time,
    });
    expect(code).toBe('ABCD-1234');
    expect(time.sleeps).toEqual([5_500]);
    expect(auth.requests.find((r) => r.path === '/api/accounts/deviceauth/token')?.fields.user_code).toBe('ABCD-1234');
  });

  it('says device login is not enabled on a 404 start', async () => {
    auth.device.enabled = false;
    await expect(
      loginWithDevice({ endpoints: { issuer: auth.origin, api: auth.origin }, onPrompt: () => undefined }),
    ).rejects.toMatchObject({
      code: 'device_login_not_enabled',
    });
  });

  it('fails on any other non-2xx poll without exchanging', async () => {
    auth.device.failStatus = 500;
    const time = fakeTime();
    await expect(
      loginWithDevice({ endpoints: { issuer: auth.origin, api: auth.origin }, onPrompt: () => undefined, ...time }),
    ).rejects.toMatchObject({
      code: 'device_login_failed',
      details: { httpStatus: 500 },
    });
    expect(auth.grants('authorization_code')).toHaveLength(0);
  });

  it('gives up after 15 minutes of pending', async () => {
    auth.device.pendingPolls = 10_000;
    auth.device.interval = '60';
    const time = fakeTime();
    await expect(
      loginWithDevice({ endpoints: { issuer: auth.origin, api: auth.origin }, onPrompt: () => undefined, ...time }),
    ).rejects.toMatchObject({
      code: 'device_login_timeout',
    });
    expect(time.sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(15 * 60_000);
    expect(time.sleeps.length).toBeGreaterThanOrEqual(14);
  });

  it('parses the interval string: default 5, at least 1', () => {
    expect(parsePollInterval('7')).toBe(7);
    expect(parsePollInterval(' 3 ')).toBe(3);
    expect(parsePollInterval(undefined)).toBe(5);
    expect(parsePollInterval('soon')).toBe(5);
    expect(parsePollInterval('')).toBe(5);
    expect(parsePollInterval('0')).toBe(1);
    expect(parsePollInterval('-4')).toBe(1);
    expect(parsePollInterval(2)).toBe(2);
  });
});
