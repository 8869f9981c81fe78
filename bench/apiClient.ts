/** The run requests the bench sends, as a client of the public REST contract would send them. */
import { randomBytes } from 'node:crypto';
import type { TargetReady } from './childServer.js';

export const RUNS_PATH = '/api/v1/agent-runs';
export const START_BODY = JSON.stringify({ objective: 'bench objective' });

export const continueBody = (expectedVersion: number): string =>
  JSON.stringify({ expected_version: expectedVersion, instruction: 'go' });

export const requestHeaders = (target: TargetReady): Record<string, string> => ({
  authorization: `Bearer ${target.token}`,
  'content-type': 'application/json',
});

/**
 * Fresh Idempotency-Keys (8-200 printable characters): a random prefix per generator, so two
 * generators never collide, and a counter, so one never repeats itself.
 */
export const idempotencyKeys = (label: string): (() => string) => {
  const prefix = `bench-${label}-${randomBytes(6).toString('hex')}`;
  let n = 0;
  return () => `${prefix}-${(n++).toString(36)}`;
};

export interface RunSnapshot {
  readonly runId: string;
  readonly version: number;
}

/** The fields the bench needs from a run snapshot; a non-success status is a broken bench. */
export const readSnapshot = async (response: Response, expectedStatus: number): Promise<RunSnapshot> => {
  const text = await response.text();
  if (response.status !== expectedStatus) {
    throw new Error(`expected HTTP ${expectedStatus}, got ${response.status}: ${text.slice(0, 300)}`);
  }
  const body = JSON.parse(text) as { run_id?: unknown; version?: unknown };
  if (typeof body.run_id !== 'string' || typeof body.version !== 'number')
    throw new Error(`not a run snapshot: ${text.slice(0, 300)}`);
  return { runId: body.run_id, version: body.version };
};

/** `signal` bounds the request (the soak's requests time out); the bench's phases wait as long as it takes. */
export const startRun = async (target: TargetReady, key: string, signal?: AbortSignal): Promise<RunSnapshot> =>
  readSnapshot(
    await fetch(`${target.url}${RUNS_PATH}`, {
      method: 'POST',
      headers: { ...requestHeaders(target), 'idempotency-key': key },
      body: START_BODY,
      signal: signal ?? null,
    }),
    201,
  );

export const continueRun = async (
  target: TargetReady,
  run: RunSnapshot,
  key: string,
  signal?: AbortSignal,
): Promise<RunSnapshot> =>
  readSnapshot(
    await fetch(`${target.url}${RUNS_PATH}/${encodeURIComponent(run.runId)}/continue`, {
      method: 'POST',
      headers: { ...requestHeaders(target), 'idempotency-key': key },
      body: continueBody(run.version),
      signal: signal ?? null,
    }),
    200,
  );
