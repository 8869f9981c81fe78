/**
 * Nearest-rank percentile of ascending samples: the smallest sample with at least p% of the
 * samples at or below it. No interpolation, so the reported value is a latency that was observed.
 */
export const percentile = (ascending: readonly number[], p: number): number => {
  if (ascending.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * ascending.length);
  return ascending[Math.min(ascending.length, Math.max(1, rank)) - 1] ?? Number.NaN;
};
