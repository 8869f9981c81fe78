/**
 * Nearest-rank percentile of ascending samples: the smallest sample with at least p% of the
 * samples at or below it. No interpolation, so the reported value is a latency that was observed.
 */
export const percentile = (ascending: readonly number[], p: number): number => {
  if (ascending.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * ascending.length);
  return ascending[Math.min(ascending.length, Math.max(1, rank)) - 1] ?? Number.NaN;
};

export interface LatencySummary {
  readonly samples: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly meanMs: number;
  readonly maxMs: number;
}

export const summarizeLatency = (samples: readonly number[]): LatencySummary => {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    samples: sorted.length,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    meanMs: sorted.reduce((sum, x) => sum + x, 0) / sorted.length,
    maxMs: sorted[sorted.length - 1] ?? Number.NaN,
  };
};
