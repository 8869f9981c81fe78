// Stopping the player (docs/spec/shared-live-room-requirements.md M-03, §23.2): release every
// asserted control and drop the path goal at once. `pathfinder.stop()` is graceful and was measured
// drifting 3.48 blocks on flying-squid; `setGoal(null)` + `clearControlStates()` drifted 0.00. A stop
// counts only once the position is verified stable (the stationary postcondition).
import type { Bot } from 'mineflayer';
import { ACTION_LIMITS, type Postcondition } from '../actionWire.js';
import type { Vec } from './outcome.js';

/** Drops the path goal, releases every control and aborts a dig in progress; synchronous, no waiting. */
export const haltMotion = (bot: Bot): void => {
  bot.pathfinder.setGoal(null);
  bot.clearControlStates();
  bot.stopDigging();
};

/**
 * Released controls leave momentum: a sprinting player glides about a third of a block over ~5 ticks
 * before it rests. So the stationary window may be retried while the player settles, but the whole
 * glide since the halt is bounded too: a graceful stop that finishes its path segment (§23.2 measured
 * 3.48 blocks) is not a stop.
 */
const MAX_WINDOWS = 4;
const MAX_GLIDE_BLOCKS = 0.5;

export type Stationary = Extract<Postcondition, { kind: 'stationary' }>;

const windowDrift = async (bot: Bot): Promise<number> => {
  const start = bot.entity.position.clone();
  let drift = 0;
  for (let tick = 0; tick < ACTION_LIMITS.stationaryWindowTicks; tick++) {
    await bot.waitForTicks(1);
    drift = Math.max(drift, bot.entity.position.distanceTo(start));
  }
  return drift;
};

/**
 * Samples the position over `stationaryWindowTicks` ticks, up to MAX_WINDOWS times, and returns the
 * first window that moved less than `stationaryEpsilonBlocks` (or the last one). `stationary` holds
 * when that window is within the epsilon and the player glided less than MAX_GLIDE_BLOCKS since `haltedAt`.
 */
export const verifyStationary = async (
  bot: Bot,
  haltedAt: Vec,
): Promise<{ stationary: boolean; glide_blocks: number; postcondition: Stationary }> => {
  let drift = Number.POSITIVE_INFINITY;
  for (let n = 0; n < MAX_WINDOWS && drift >= ACTION_LIMITS.stationaryEpsilonBlocks; n++) {
    drift = await windowDrift(bot);
  }
  const glide = bot.entity.position.distanceTo(haltedAt);
  return {
    stationary: drift < ACTION_LIMITS.stationaryEpsilonBlocks && glide < MAX_GLIDE_BLOCKS,
    glide_blocks: Math.round(glide * 1000) / 1000,
    postcondition: {
      kind: 'stationary',
      drift_blocks: Math.round(drift * 1000) / 1000,
      window_ticks: ACTION_LIMITS.stationaryWindowTicks,
    },
  };
};
