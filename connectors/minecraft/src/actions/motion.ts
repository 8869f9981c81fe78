// The motion kinds (MC-15 on flying-squid, §23.2): navigate_to and follow through mineflayer-pathfinder
// goals, look_at, walk and jump through the client's own controls. Each ends with the position the
// player reached, so Helix checks the outcome rather than trusting the intent (MC-12).
import type { Bot } from 'mineflayer';
import pathfinderPackage from 'mineflayer-pathfinder';
import type { Action } from '../actionWire.js';
import { completed, failed, type Outcome, positionNow, ticks, untilAborted, vec } from './outcome.js';

const { goals } = pathfinderPackage;

type Of<K extends Action['kind']> = Extract<Action, { kind: K }>;

/** Pathfinder's own failures (NoPath, Timeout, …) mean the target cannot be reached from here. */
export const navigateTo = async (bot: Bot, action: Of<'navigate_to'>, signal: AbortSignal): Promise<Outcome> => {
  const { x, y, z } = action.target;
  const target = vec(bot, action.target);
  try {
    await untilAborted(bot.pathfinder.goto(new goals.GoalNear(x, y, z, action.range)), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    return failed('unreachable', positionNow(bot, target));
  }
  return completed(positionNow(bot, target));
};

export const lookAt = async (bot: Bot, action: Of<'look_at'>, signal: AbortSignal): Promise<Outcome> => {
  await untilAborted(bot.lookAt(vec(bot, action.target), true), signal);
  return completed({ kind: 'look', yaw: bot.entity.yaw, pitch: bot.entity.pitch });
};

/** Holds one direction for `ticks` game ticks, then releases it (a stop releases it earlier). */
export const walk = async (bot: Bot, action: Of<'walk'>, signal: AbortSignal): Promise<Outcome> => {
  bot.setControlState(action.direction, true);
  try {
    await ticks(bot, action.ticks, signal);
  } finally {
    bot.setControlState(action.direction, false);
  }
  return completed(positionNow(bot, null));
};

/** A jump peaks after about 6 ticks and lands after about 12; the player must have left the ground. */
const JUMP_TICKS = 12;

export const jump = async (bot: Bot, _action: Of<'jump'>, signal: AbortSignal): Promise<Outcome> => {
  const startY = bot.entity.position.y;
  let highest = startY;
  bot.setControlState('jump', true);
  try {
    for (let tick = 0; tick < JUMP_TICKS; tick++) {
      await ticks(bot, 1, signal);
      if (tick === 0) bot.setControlState('jump', false);
      highest = Math.max(highest, bot.entity.position.y);
    }
  } finally {
    bot.setControlState('jump', false);
  }
  // Under a ceiling, or in a liquid, the control is pressed but the player does not rise.
  return highest - startY > 0.5 ? completed(positionNow(bot, null)) : failed('blocked_jump', positionNow(bot, null));
};

/** Keeps within `range` of the named player for `duration_ms`, then drops the goal. */
export const follow = async (bot: Bot, action: Of<'follow'>, signal: AbortSignal): Promise<Outcome> => {
  const entity = bot.players[action.player]?.entity;
  if (entity === undefined || action.player === bot.username) return failed('no_such_player');
  bot.pathfinder.setGoal(new goals.GoalFollow(entity, action.range), true);
  try {
    await untilAborted(new Promise((resolve) => setTimeout(resolve, action.duration_ms)), signal);
  } finally {
    bot.pathfinder.setGoal(null);
    bot.clearControlStates();
  }
  return completed(positionNow(bot, entity.position));
};
