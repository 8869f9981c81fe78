/** The soak's lines and JSON fields, shared by `npm run bench` (report.ts) and `npm run soak`. */
import { describeMix, MIXED_OPERATIONS } from './mixedLoad.js';
import { SOAK_GROWTH_MAX, type Soak } from './soak.js';
import { metMark, round } from './tables.js';

const total = (counts: Readonly<Record<string, number>>): number =>
  Object.values(counts).reduce((sum, n) => sum + n, 0);

export const describeSoak = (soak: Soak): string =>
  `soak: one helix child, ${soak.shape.seconds} s of mixed load at ${soak.shape.requestsPerSecond} req/s (at most ${soak.shape.maxInFlight} in flight; ` +
  `${describeMix()}), VmRSS every ${soak.shape.sampleSeconds} s`;

export const soakLines = (soak: Soak): string[] => {
  const { counts } = soak;
  const perOperation = MIXED_OPERATIONS.map(
    (op) => `${op} ${counts.sent[op]}${counts.failed[op] > 0 ? ` (${counts.failed[op]} failed)` : ''}`,
  ).join(', ');
  return [
    `soak RSS (MB) every ${soak.shape.sampleSeconds} s: ${soak.samples.map((s) => s.rssMb.toFixed(1)).join(', ')}`,
    `soak RSS: first ${soak.firstMb.toFixed(1)} MB, peak ${soak.peakMb.toFixed(1)} MB, middle-third mean ${soak.middleMeanMb.toFixed(1)} MB, ` +
      `last-third mean ${soak.lastMeanMb.toFixed(1)} MB (${soak.growth >= 0 ? '+' : ''}${(soak.growth * 100).toFixed(1)}%)`,
    `soak requests: ${total(counts.sent)} sent (${perOperation}); ${total(counts.failed)} failed; ${counts.dropped} not sent because ${soak.shape.maxInFlight} were in flight`,
  ];
};

export const soakGoalLine = (soak: Soak): string =>
  `goal: RSS levels off over the soak (last third < ${SOAK_GROWTH_MAX * 100}% above the middle third): ${metMark(soak.levelsOff)} (${soak.growth >= 0 ? '+' : ''}${(soak.growth * 100).toFixed(1)}%)`;

export const soakFields = (soak: Soak) => ({
  soak_seconds: soak.shape.seconds,
  soak_rate_rps: soak.shape.requestsPerSecond,
  soak_requests: total(soak.counts.sent),
  soak_failed: total(soak.counts.failed),
  soak_not_sent: soak.counts.dropped,
  soak_rss_mb: soak.samples.map((s) => round(s.rssMb, 1)),
  soak_rss_first_mb: round(soak.firstMb, 1),
  soak_rss_peak_mb: round(soak.peakMb, 1),
  soak_rss_middle_mean_mb: round(soak.middleMeanMb, 1),
  soak_rss_last_mean_mb: round(soak.lastMeanMb, 1),
  soak_rss_growth: round(soak.growth, 4),
  goal_soak_growth_max: SOAK_GROWTH_MAX,
  goal_soak_met: soak.levelsOff,
});
