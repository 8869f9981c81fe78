/**
 * Start-run throughput: autocannon drives POST /api/v1/agent-runs over concurrent keep-alive
 * connections, Helix and the floor in alternating rounds (throughputRounds.ts) while both servers
 * are up. The faster server ends with more rows, which, if anything, slows it and flatters Helix a little.
 */
import autocannon from 'autocannon';
import { idempotencyKeys, requestHeaders, RUNS_PATH, START_BODY } from './apiClient.js';
import type { TargetReady } from './childServer.js';
import { measureAlternating, type Load, type LoadShape, type Throughput } from './throughputRounds.js';

export const START_TARGETS = ['helix', 'floor'] as const;
export type StartTarget = (typeof START_TARGETS)[number];
export type StartThroughput = Throughput;

/** One target's load: a key generator shared by all its rounds, so no key is ever sent twice. */
export const startLoad = (target: TargetReady, connections: number): Load => {
  const nextKey = idempotencyKeys('start');
  return (seconds) =>
    autocannon({
      url: `${target.url}${RUNS_PATH}`,
      connections,
      duration: seconds,
      method: 'POST',
      headers: requestHeaders(target),
      body: START_BODY,
      // A reused key would be answered as a replay, which is not a start; every request gets its own.
      requests: [
        { setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'idempotency-key': nextKey() } }) },
      ],
    });
};

export const measureStartThroughput = (
  targets: Readonly<Record<StartTarget, TargetReady>>,
  load: LoadShape,
): Promise<Record<StartTarget, StartThroughput>> =>
  measureAlternating(
    START_TARGETS,
    { helix: startLoad(targets.helix, load.connections), floor: startLoad(targets.floor, load.connections) },
    load,
  );
