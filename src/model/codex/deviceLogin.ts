import { setTimeout as delay } from 'node:timers/promises';
import { ModelError } from '../port.js';
import { readBoundedText } from '../../net/boundedBody.js';
import { defaultProviderFetch } from '../http/providerFetch.js';
import { CodexAuthError } from './codexAuthError.js';
import { CODEX_CLIENT_ID, codexPaths, type CodexEndpoints } from './endpoints.js';
import { deviceAuthorizationResponse } from './oauthClient.js';
import { exchangeAuthorizationCode, type CodexTokens } from './tokenClient.js';

/** docs/spec/codex-protocol-notes.md "Device login": poll for at most 15 minutes. */
export const DEVICE_LOGIN_MAX_WAIT_MS = 15 * 60_000;
const DEFAULT_INTERVAL_SECONDS = 5;
/** Added to every poll wait so a server counting from its own clock never sees us early. */
const POLL_SAFETY_MARGIN_MS = 500;
const REQUEST_TIMEOUT_MS = 30_000;

export interface DevicePrompt {
  /** `{issuer}/codex/device`, where the user types the code. */
  readonly verificationUrl: string;
  readonly userCode: string;
}

export interface DeviceLoginOptions {
  readonly endpoints: CodexEndpoints;
  /** Called once the code is known; the CLI prints the URL and the code. */
  readonly onPrompt: (prompt: DevicePrompt) => void;
  readonly signal?: AbortSignal;
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly now?: () => number;
  readonly maxWaitMs?: number;
}

/** `interval` arrives as a string of seconds: absent or unparsable means 5, anything parsed is at least 1. */
export const parsePollInterval = (value: unknown): number => {
  const seconds =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value.trim())
        : Number.NaN;
  if (!Number.isFinite(seconds)) return DEFAULT_INTERVAL_SECONDS;
  return Math.max(1, Math.floor(seconds));
};

const postJson = async (
  endpoints: CodexEndpoints,
  path: string,
  body: Record<string, string>,
  signal: AbortSignal,
): Promise<Response> => {
  try {
    return await defaultProviderFetch(new URL(path, endpoints.issuer).toString(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.any([signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
    });
  } catch (err) {
    if (err instanceof ModelError)
      throw new CodexAuthError(
        'endpoint_redirect',
        `the device login endpoint answered with a redirect (HTTP ${String(err.details.httpStatus)}), which is refused`,
      );
    if (signal.aborted) throw new CodexAuthError('aborted', 'the device login was aborted');
    throw new CodexAuthError('transport', `could not reach the device login endpoint: ${(err as Error).message}`);
  }
};

/** Device answers are a handful of short fields. */
const MAX_DEVICE_RESPONSE_BYTES = 64 * 1024;

const jsonObject = async (response: Response): Promise<Record<string, unknown>> => {
  const body: unknown = await readBoundedText(response, MAX_DEVICE_RESPONSE_BYTES)
    .then(({ text, complete }) => (complete ? JSON.parse(text) : undefined))
    .catch(() => undefined);
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
};

const text = (body: Record<string, unknown>, key: string): string | undefined => {
  const value = body[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/**
 * Device-code login: start, show the code, poll until the user approved it (403/404 = pending),
 * then exchange the returned authorization code with `{issuer}/deviceauth/callback` as redirect.
 */
export const loginWithDevice = async (options: DeviceLoginOptions): Promise<CodexTokens> => {
  const signal = options.signal ?? new AbortController().signal;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number, s: AbortSignal) => delay(ms, undefined, { signal: s }));
  const { endpoints } = options;

  const start = await postJson(endpoints, codexPaths.deviceStart, { client_id: CODEX_CLIENT_ID }, signal);
  if (start.status === 404) {
    await start.body?.cancel();
    throw new CodexAuthError(
      'device_login_not_enabled',
      'device login is not enabled for this account or server; use the browser login',
      { httpStatus: 404 },
    );
  }
  if (!start.ok) {
    await start.body?.cancel();
    throw new CodexAuthError('device_login_failed', `the device login could not start (HTTP ${start.status})`, {
      httpStatus: start.status,
    });
  }
  const started = await jsonObject(start);
  const deviceAuthId = text(started, 'device_auth_id');
  const userCode = text(started, 'user_code') ?? text(started, 'usercode');
  if (deviceAuthId === undefined || userCode === undefined)
    throw new CodexAuthError(
      'device_login_failed',
      'the device login start response lacks device_auth_id or user_code',
    );
  const intervalMs = parsePollInterval(started.interval) * 1000 + POLL_SAFETY_MARGIN_MS;

  options.onPrompt({ verificationUrl: new URL(codexPaths.deviceVerification, endpoints.issuer).toString(), userCode });

  const deadline = now() + (options.maxWaitMs ?? DEVICE_LOGIN_MAX_WAIT_MS);
  for (;;) {
    const poll = await postJson(
      endpoints,
      codexPaths.devicePoll,
      { device_auth_id: deviceAuthId, user_code: userCode },
      signal,
    );
    if (poll.ok) {
      const approved = await jsonObject(poll);
      const code = text(approved, 'authorization_code');
      const codeVerifier = text(approved, 'code_verifier');
      if (code === undefined || codeVerifier === undefined)
        throw new CodexAuthError(
          'device_login_failed',
          'the device login answer lacks authorization_code or code_verifier',
        );
      const redirectUri = new URL(codexPaths.deviceRedirect, endpoints.issuer).toString();
      const callback = deviceAuthorizationResponse(endpoints, code);
      return exchangeAuthorizationCode(endpoints, { callback, redirectUri, codeVerifier }, signal, now);
    }
    await poll.body?.cancel();
    if (poll.status !== 403 && poll.status !== 404) {
      throw new CodexAuthError('device_login_failed', `the device login failed (HTTP ${poll.status})`, {
        httpStatus: poll.status,
      });
    }
    if (now() + intervalMs > deadline)
      throw new CodexAuthError(
        'device_login_timeout',
        'the device code was not approved within 15 minutes; run the login again',
      );
    try {
      await sleep(intervalMs, signal);
    } catch {
      throw new CodexAuthError('aborted', 'the device login was aborted');
    }
  }
};
