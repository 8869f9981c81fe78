// Stopping the player (docs/spec/shared-live-room-requirements.md M-03, §23.2): release every
// asserted control and drop the path goal at once. `pathfinder.stop()` is graceful and was measured
// drifting 3.48 blocks on flying-squid; `setGoal(null)` + `clearControlStates()` drifted 0.00. A stop
// counts only once the position is verified stable (the stationary postcondition).
import type { Bot } from 'mineflayer';
import { ACTION_LIMITS, type Postcondition } from '../actionWire.js';

/** Drops the path goal, releases every control and aborts a dig in progress; synchronous, no waiting. */
export const haltMotion = (bot: Bot): void => {
  bot.pathfinder.setGoal(null);
  bot.clearControlStates();
  bot.stopDigging();
};

/** Momentum can carry the player a few hundredths of a block after the halt: a few windows to settle. */
const MAX_WINDOWS = 4;

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
 * first window that moved less than `stationaryEpsilonBlocks` (or the last one): `stationary` says which.
 */
export const verifyStationary = async (bot: Bot): Promise<{ stationary: boolean; postcondition: Stationary }> => {
  let drift = Number.POSITIVE_INFINITY;
  for (let n = 0; n < MAX_WINDOWS && drift >= ACTION_LIMITS.stationaryEpsilonBlocks; n++) {
    drift = await windowDrift(bot);
  }
  return {
    stationary: drift < ACTION_LIMITS.stationaryEpsilonBlocks,
    postcondition: {
      kind: 'stationary',
      drift_blocks: Math.round(drift * 1000) / 1000,
      window_ticks: ACTION_LIMITS.stationaryWindowTicks,
    },
  };
};
