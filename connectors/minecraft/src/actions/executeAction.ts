// Runs one typed action to its outcome (MC-12, MC-15): refuse a target beyond the reach limit without
// moving, run the kind, and classify an interruption: a control (`stopped`), the deadline (`failed`,
// `deadline`), or the game refusing (`failed`). Nothing here sends text to the game (MC-11).
import type { Bot } from 'mineflayer';
import { ACTION_LIMITS, type Action, type ExecutableKind } from '../actionWire.js';
import { haltMotion } from './halt.js';
import { follow, jump, lookAt, navigateTo, walk } from './motion.js';
import { actionTarget, blockCentre, failed, type Outcome, positionNow } from './outcome.js';
import { equip, hotbarSelect, interact, mine, place } from './world.js';

type Runner<K extends ExecutableKind> = (
  bot: Bot,
  action: Extract<Action, { kind: K }>,
  signal: AbortSignal,
) => Promise<Outcome>;

const RUNNERS: { readonly [K in ExecutableKind]: Runner<K> } = {
  navigate_to: navigateTo,
  look_at: lookAt,
  walk,
  jump,
  hotbar_select: hotbarSelect,
  equip,
  follow,
  mine,
  place,
  interact,
};

/** Why an action was interrupted: the control that stopped it, or its deadline. */
export type Interruption = 'cancel' | 'emergency_stop' | 'deadline';

const run = <K extends ExecutableKind>(bot: Bot, action: Extract<Action, { kind: K }>, signal: AbortSignal) =>
  (RUNNERS[action.kind] as Runner<K>)(bot, action, signal);

/**
 * `signal` aborts with an Interruption as its reason. A target farther than `maxReachBlocks` is
 * `blocked` before anything moves (the postcondition shows the unchanged position).
 */
export const executeAction = async (bot: Bot, action: Action, signal: AbortSignal): Promise<Outcome> => {
  const target = actionTarget(action);
  if (target !== null) {
    const centre = blockCentre(bot, target);
    if (bot.entity.position.distanceTo(centre) > ACTION_LIMITS.maxReachBlocks) {
      return { status: 'blocked', reason: 'out_of_reach', postcondition: positionNow(bot, centre) };
    }
  }
  try {
    return await run(bot, action, signal);
  } catch {
    // Whatever was asserted for this action is released before it is reported.
    haltMotion(bot);
    const why = signal.aborted ? (signal.reason as Interruption) : undefined;
    if (why === 'cancel' || why === 'emergency_stop') {
      return { status: 'stopped', reason: why, postcondition: positionNow(bot, null) };
    }
    return failed(why === 'deadline' ? 'deadline' : 'game_refused', positionNow(bot, null));
  }
};
