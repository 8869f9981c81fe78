/**
 * The goals the benchmark issues set (the throughput and latency ones from issue 19). Reported,
 * never asserted: a missed goal is a finding, not a failure of the bench.
 */
import { SOAK_GROWTH_MAX } from './soak.js';

export const GOALS = {
  /** Helix start throughput must reach at least this fraction of the floor's. */
  startRatioMin: 0.6,
  /** Helix continue p50 may exceed the floor's p50 by at most this many milliseconds. */
  continueOverheadP50MaxMs: 1,
  /** Helix inspect and events throughput, each as a fraction of the floor's. */
  inspectRatioMin: 0.6,
  eventsRatioMin: 0.8,
  /** MCP inspect throughput must reach at least this fraction of REST inspect's, on the same server. */
  mcpRestRatioMin: 0.7,
  /** Two replicas on one PostgreSQL, as a multiple of one (or a measured reason the machine cannot show it). */
  replicasRatioMin: 1.3,
  /**
   * Issue 7: inspect and events latency stays flat as the store grows. The store reads behind them,
   * at the largest size measured, may take at most this many times their p50 at the smallest.
   */
  growthP50RatioMax: 1.5,
  /** Issue 7: RSS levels off over a bounded soak (last third's mean over the middle third's, minus one). */
  soakRssGrowthMax: SOAK_GROWTH_MAX,
} as const;
