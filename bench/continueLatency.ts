/**
 * Continue latency: one client, one request at a time, over fetch's keep-alive connections, so
 * each sample is the full client-observed cost of one turn (claim, no-op execute, finalize) and
 * nothing queues behind anything else. Helix and floor turns alternate (both servers are up), so
 * any outside load on a shared machine is spread evenly over the two sets of samples.
 */
import { performance } from 'node:perf_hooks';
import { continueRun, idempotencyKeys, startRun, type RunSnapshot } from './apiClient.js';
import type { TargetReady } from './childServer.js';
import { summarizeLatency, type LatencySummary } from './percentile.js';

export const CONTINUE_TARGETS = ['helix', 'floor'] as const;
export type ContinueTarget = (typeof CONTINUE_TARGETS)[number];

export interface ContinueShape {
  /** Per target, discarded. */
  readonly warmupContinues: number;
  /** Per target, measured. */
  readonly measuredContinues: number;
  /** Helix's default budget allows this many continues per run (each moves the version by 2). */
  readonly continuesPerRun: number;
}

export type ContinueLatency = LatencySummary;

/** Drives one target's runs: a new run whenever the budget is spent; returns each turn's latency. */
export const turnDriver = (target: TargetReady, continuesPerRun: number) => {
  const nextKey = idempotencyKeys('continue');
  let run: RunSnapshot | undefined;
  let left = 0;
  return async (): Promise<number> => {
    // Starting a fresh run is not part of the measured request.
    if (run === undefined || left === 0) {
      run = await startRun(target, nextKey());
      left = continuesPerRun;
    }
    const t0 = performance.now();
    run = await continueRun(target, run, nextKey());
    const elapsed = performance.now() - t0;
    left--;
    return elapsed;
  };
};

export const measureContinueLatency = async (
  targets: Readonly<Record<ContinueTarget, TargetReady>>,
  shape: ContinueShape,
): Promise<Record<ContinueTarget, ContinueLatency>> => {
  const drivers = {
    helix: turnDriver(targets.helix, shape.continuesPerRun),
    floor: turnDriver(targets.floor, shape.continuesPerRun),
  };
  const samples: Record<ContinueTarget, number[]> = { helix: [], floor: [] };
  for (let i = 0; i < shape.warmupContinues + shape.measuredContinues; i++) {
    // Alternate which target goes first, so neither always follows the other's turn.
    const order = i % 2 === 0 ? CONTINUE_TARGETS : [...CONTINUE_TARGETS].reverse();
    for (const kind of order) {
      const elapsed = await drivers[kind]();
      if (i >= shape.warmupContinues) samples[kind].push(elapsed);
    }
  }
  return { helix: summarizeLatency(samples.helix), floor: summarizeLatency(samples.floor) };
};
