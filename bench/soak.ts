/**
 * Memory over a soak: the server child runs a steady mixed load (mixedLoad.ts) for a bounded time
 * while its resident set (VmRSS in /proc/<pid>/status) is sampled at a fixed interval. RSS "levels
 * off" when the mean of the last third of the samples is less than SOAK_GROWTH_MAX above the mean of
 * the middle third; the first third is start-up and JIT warm-up, which is expected to grow.
 * `npm run bench` runs a short soak; `npm run soak` (scripts/soak.ts) runs the long one, same code.
 */
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { startMixedLoad, type MixedCounts, type MixedLoadShape } from './mixedLoad.js';
import type { Target } from './target.js';

/** Growth from the middle third to the last third below which RSS is said to level off. */
export const SOAK_GROWTH_MAX = 0.1;

export interface SoakShape extends MixedLoadShape {
  readonly seconds: number;
  readonly sampleSeconds: number;
}

export interface RssSample {
  readonly atSeconds: number;
  readonly rssMb: number;
}

export interface Soak {
  readonly shape: SoakShape;
  readonly samples: readonly RssSample[];
  readonly firstMb: number;
  readonly peakMb: number;
  readonly middleMeanMb: number;
  readonly lastMeanMb: number;
  /** lastMeanMb / middleMeanMb - 1. */
  readonly growth: number;
  readonly levelsOff: boolean;
  readonly counts: MixedCounts;
}

/** The process's resident set in MB (Linux /proc). */
export const readRssMb = async (pid: number): Promise<number> => {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (match === null) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
};

const mean = (values: readonly number[]): number => values.reduce((sum, v) => sum + v, 0) / values.length;

/** Splits the samples into thirds of the soak's duration and compares the last two. */
export const summarizeRss = (samples: readonly RssSample[], seconds: number) => {
  const middle = samples
    .filter((s) => s.atSeconds >= seconds / 3 && s.atSeconds < (2 * seconds) / 3)
    .map((s) => s.rssMb);
  const last = samples.filter((s) => s.atSeconds >= (2 * seconds) / 3).map((s) => s.rssMb);
  if (middle.length === 0 || last.length === 0)
    throw new Error('soak: too few RSS samples to compare thirds; sample more often');
  const [middleMeanMb, lastMeanMb] = [mean(middle), mean(last)];
  const growth = lastMeanMb / middleMeanMb - 1;
  return { middleMeanMb, lastMeanMb, growth, levelsOff: growth < SOAK_GROWTH_MAX };
};

const totalOf = (counts: Readonly<Record<string, number>>): number =>
  Object.values(counts).reduce((sum, n) => sum + n, 0);

export const measureSoak = async (
  target: Target,
  shape: SoakShape,
  progress: (message: string) => void,
): Promise<Soak> => {
  const samples: RssSample[] = [{ atSeconds: 0, rssMb: await readRssMb(target.pid) }];
  const load = startMixedLoad(target, shape);
  const started = performance.now();
  try {
    for (let i = 1; i * shape.sampleSeconds <= shape.seconds; i++) {
      // Sleep to the sample's deadline rather than by a fixed amount, so sampling does not drift.
      await sleep(Math.max(0, started + i * shape.sampleSeconds * 1000 - performance.now()));
      const sample = { atSeconds: i * shape.sampleSeconds, rssMb: await readRssMb(target.pid) };
      samples.push(sample);
      const counts = load.counts();
      progress(
        `  soak ${sample.atSeconds} s: RSS ${sample.rssMb.toFixed(1)} MB, ${totalOf(counts.sent)} requests, ${totalOf(counts.failed)} failed, ${counts.dropped} not sent`,
      );
    }
  } finally {
    await load.stop();
  }
  const counts = load.counts();
  const rss = samples.map((s) => s.rssMb);
  return {
    shape,
    samples,
    firstMb: rss[0] ?? Number.NaN,
    peakMb: Math.max(...rss),
    ...summarizeRss(samples, shape.seconds),
    counts,
  };
};
