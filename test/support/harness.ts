import { onTestFinished } from 'vitest';

export { ALL_RUN_SCOPES, startTestHelix, type TestHelix } from './testHelix.js';

export interface ApiResponse<T = any> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
  readonly text: string;
}

/** A tiny REST client over real HTTP (fetch), returning parsed JSON and headers. */
export const api = async <T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: {
    token?: string;
    body?: unknown;
    rawBody?: string;
    idempotencyKey?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<ApiResponse<T>> => {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
};

let keyCounter = 0;
/** A fresh, valid Idempotency-Key. */
export const idemKey = (label = 'k'): string => `test-${label}-${process.pid}-${Date.now()}-${++keyCounter}`;

/**
 * Polls until the predicate holds, for state no event announces (a request mid-flight, a row
 * written by another process). It has no deadline of its own, which would be a guess at the
 * machine's speed: the test's ceiling (test/support/ceilings.ts) bounds it, and it stops polling
 * once the test has ended.
 */
export const waitFor = async (predicate: () => Promise<boolean>): Promise<void> => {
  let ended = false;
  try {
    onTestFinished(() => {
      ended = true;
    });
  } catch {
    // Called from a hook, not a test: the hook's ceiling bounds it.
  }
  while (!(await predicate())) {
    if (ended) throw new Error('the test ended before the condition held');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/** A clock tests move by hand; the service reads time only through it. */
export const manualClock = (start = Date.now()) => {
  let offset = 0;
  return {
    now: () => start + offset,
    advance: (ms: number) => {
      offset += ms;
    },
  };
};

/** An executor whose turns wait until released, so a request can be observed mid-flight. */
export const gate = () => {
  let release: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (release = resolve));
  return { opened, release: () => release() };
};
