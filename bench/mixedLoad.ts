/**
 * A steady mixed load for the soak: starts, continues, REST inspects, event pages and MCP inspects,
 * paced at a fixed request rate with a cap on requests in flight, against one server. Unlike the
 * autocannon phases it does not push the server as hard as it can: the soak asks whether memory
 * stays put under ordinary use, not how much the server can take.
 */
import { performance } from 'node:perf_hooks';
import { continueRun, idempotencyKeys, RUNS_PATH, startRun, type RunSnapshot } from './apiClient.js';
import type { TargetReady } from './childServer.js';
import { EVENTS_PAGE_QUERY } from './readThroughput.js';

export const MIXED_OPERATIONS = ['start', 'continue', 'inspect', 'events', 'mcpInspect'] as const;
export type MixedOperation = (typeof MIXED_OPERATIONS)[number];

/** Shares of the mix, out of 10: most traffic reads, and continues outnumber starts as runs take several turns. */
const WEIGHTS: Readonly<Record<MixedOperation, number>> = {
  start: 1,
  continue: 3,
  inspect: 2,
  events: 2,
  mcpInspect: 2,
};
const TOTAL_WEIGHT = MIXED_OPERATIONS.reduce((sum, op) => sum + WEIGHTS[op], 0);

/** "start 10%, continue 30%, …", for the report. */
export const describeMix = (): string =>
  MIXED_OPERATIONS.map((op) => `${op} ${Math.round((WEIGHTS[op] / TOTAL_WEIGHT) * 100)}%`).join(', ');
const TICK_MS = 50;
const REQUEST_TIMEOUT_MS = 10_000;
/** Helix's default budget: a run takes this many continues. */
const CONTINUES_PER_RUN = 12;
/** Runs kept for reading and for continuing; older ones simply stay in the store. */
const POOL_SIZE = 256;

export interface MixedLoadShape {
  readonly requestsPerSecond: number;
  readonly maxInFlight: number;
}

export interface MixedCounts {
  readonly sent: Readonly<Record<MixedOperation, number>>;
  readonly failed: Readonly<Record<MixedOperation, number>>;
  /** Requests the pacer did not send because `maxInFlight` were still out: the server fell behind. */
  readonly dropped: number;
}

export interface RunningMixedLoad {
  counts(): MixedCounts;
  /** Stops sending and waits for the requests in flight (each bounded by a timeout). */
  stop(): Promise<MixedCounts>;
}

interface PooledRun {
  run: RunSnapshot;
  continuesLeft: number;
}

const zero = (): Record<MixedOperation, number> => ({ start: 0, continue: 0, inspect: 0, events: 0, mcpInspect: 0 });

const pickWeighted = (r: number): MixedOperation => {
  let at = r * TOTAL_WEIGHT;
  for (const op of MIXED_OPERATIONS) {
    at -= WEIGHTS[op];
    if (at < 0) return op;
  }
  return 'inspect';
};

const expectOk = async (response: Response, check?: (text: string) => boolean): Promise<void> => {
  const text = await response.text();
  if (response.status !== 200 || (check !== undefined && !check(text)))
    throw new Error(`HTTP ${response.status}: ${text.slice(0, 200)}`);
};

export const startMixedLoad = (target: TargetReady, shape: MixedLoadShape): RunningMixedLoad => {
  const sent = zero();
  const failed = zero();
  let dropped = 0;
  const nextKey = idempotencyKeys('soak');
  const continuable: PooledRun[] = [];
  const readable: string[] = [];
  const inFlight = new Set<Promise<void>>();
  const auth = { authorization: `Bearer ${target.token}` };
  const runUrl = (runId: string) => `${target.url}${RUNS_PATH}/${encodeURIComponent(runId)}`;
  const randomReadable = () => readable[Math.floor(Math.random() * readable.length)] ?? '';

  const remember = (pooled: PooledRun) => {
    if (pooled.continuesLeft > 0) continuable.push(pooled);
    if (continuable.length > POOL_SIZE) continuable.shift();
  };

  const perform = async (op: MixedOperation): Promise<void> => {
    const signal = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    switch (op) {
      case 'start': {
        const run = await startRun(target, nextKey(), signal);
        readable.push(run.runId);
        if (readable.length > POOL_SIZE) readable.shift();
        remember({ run, continuesLeft: CONTINUES_PER_RUN });
        return;
      }
      case 'continue': {
        // Taken out of the pool while its turn runs, so no two continues race for one version.
        const pooled = continuable.shift();
        if (pooled === undefined) throw new Error('no run to continue');
        pooled.run = await continueRun(target, pooled.run, nextKey(), signal);
        pooled.continuesLeft--;
        remember(pooled);
        return;
      }
      case 'inspect':
        return expectOk(await fetch(runUrl(randomReadable()), { headers: auth, signal }));
      case 'events':
        return expectOk(
          await fetch(`${runUrl(randomReadable())}/events?${EVENTS_PAGE_QUERY}`, { headers: auth, signal }),
        );
      case 'mcpInspect': {
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'helix_run_inspect', arguments: { run_id: randomReadable() } },
        });
        const headers = { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
        return expectOk(
          await fetch(`${target.url}/mcp`, { method: 'POST', headers, body, signal }),
          (text) => !text.includes('"isError":true'),
        );
      }
    }
  };

  const send = () => {
    let op = pickWeighted(Math.random());
    // Nothing to read or continue yet (or every run is mid-turn): start one instead.
    if (op === 'continue' && continuable.length === 0) op = 'start';
    if (op !== 'start' && op !== 'continue' && readable.length === 0) op = 'start';
    sent[op]++;
    const request = perform(op).catch(() => {
      failed[op]++;
    });
    inFlight.add(request);
    void request.finally(() => inFlight.delete(request));
  };

  let owed = 0;
  let last = performance.now();
  const pacer = setInterval(() => {
    const now = performance.now();
    owed += ((now - last) / 1000) * shape.requestsPerSecond;
    last = now;
    for (; owed >= 1; owed--) {
      if (inFlight.size >= shape.maxInFlight) dropped++;
      else send();
    }
  }, TICK_MS);

  const counts = (): MixedCounts => ({ sent: { ...sent }, failed: { ...failed }, dropped });
  return {
    counts,
    async stop() {
      clearInterval(pacer);
      await Promise.all([...inFlight]);
      return counts();
    },
  };
};
