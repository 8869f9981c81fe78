/**
 * Start-run throughput: autocannon drives POST /api/v1/agent-runs over concurrent keep-alive
 * connections. Helix and the floor are measured in alternating rounds (ABBA order) while both
 * servers are up, so a burst of outside load on a shared machine lands on both, not on one.
 * Rounds are timed rather than counted so the bench's run time stays bounded on a busy machine;
 * the faster server ends with more rows, which, if anything, slows it and flatters Helix a little.
 */
import autocannon from 'autocannon';
import { idempotencyKeys, requestHeaders, RUNS_PATH, START_BODY } from './apiClient.js';
import type { TargetReady } from './childServer.js';
import { TARGET_KINDS, type TargetKind } from './target.js';

export interface LoadShape {
  readonly connections: number;
  /** Per target, before any round is measured. */
  readonly warmupSeconds: number;
  /** Measured rounds per target; each target gets `rounds * roundSeconds` of measured load. */
  readonly rounds: number;
  readonly roundSeconds: number;
}

export interface StartThroughput {
  /** Successful (2xx) starts per second of measured time, over all rounds. */
  readonly rps: number;
  /** The same figure per round, to show how steady the machine was. */
  readonly roundRps: readonly number[];
  readonly succeeded: number;
  readonly non2xx: number;
  readonly errors: number;
}

/** One target's load: a key generator shared by all its rounds, so no key is ever sent twice. */
const startLoad = (target: TargetReady, connections: number) => {
  const nextKey = idempotencyKeys('start');
  return (seconds: number) =>
    autocannon({
      url: `${target.url}${RUNS_PATH}`,
      connections,
      duration: seconds,
      method: 'POST',
      headers: requestHeaders(target),
      body: START_BODY,
      // A reused key would be answered as a replay, which is not a start; every request gets its own.
      requests: [{ setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'idempotency-key': nextKey() } }) }],
    });
};

export const measureStartThroughput = async (
  targets: Readonly<Record<TargetKind, TargetReady>>,
  load: LoadShape,
): Promise<Record<TargetKind, StartThroughput>> => {
  const loads = { helix: startLoad(targets.helix, load.connections), floor: startLoad(targets.floor, load.connections) };
  // The warm-up lets both servers JIT their hot paths and grow the WAL before anything is counted.
  for (const kind of TARGET_KINDS) await loads[kind](load.warmupSeconds);

  const totals = {
    helix: { succeeded: 0, non2xx: 0, errors: 0, seconds: 0, roundRps: [] as number[] },
    floor: { succeeded: 0, non2xx: 0, errors: 0, seconds: 0, roundRps: [] as number[] },
  };
  for (let round = 0; round < load.rounds; round++) {
    const order = round % 2 === 0 ? TARGET_KINDS : [...TARGET_KINDS].reverse();
    for (const kind of order) {
      const result = await loads[kind](load.roundSeconds);
      const total = totals[kind];
      total.succeeded += result['2xx'];
      total.non2xx += result.non2xx;
      total.errors += result.errors;
      total.seconds += result.duration;
      total.roundRps.push(result['2xx'] / result.duration);
    }
  }
  const summary = (kind: TargetKind): StartThroughput => {
    const { succeeded, non2xx, errors, seconds, roundRps } = totals[kind];
    return { rps: succeeded / seconds, roundRps, succeeded, non2xx, errors };
  };
  return { helix: summary('helix'), floor: summary('floor') };
};
