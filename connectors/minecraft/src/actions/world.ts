// The hand and world kinds (MC-15 on flying-squid, §23.2): hotbar_select, equip, mine, place,
// interact. Items are matched by their registry name in the player's own inventory, never sent to
// the game as text (MC-11). Each ends with what the world reports afterwards (MC-12).
import type { Bot } from 'mineflayer';
import type { Action } from '../actionWire.js';
import {
  blockCentre,
  blockNow,
  completed,
  failed,
  type Outcome,
  type Point,
  untilAborted,
  type Vec,
  vec,
} from './outcome.js';

type Of<K extends Action['kind']> = Extract<Action, { kind: K }>;

/** How far a survival player reaches a block, from the eyes to the block's centre. */
export const HAND_REACH_BLOCKS = 4.5;
const EYE_HEIGHT = 1.62;

const withinHandReach = (bot: Bot, target: Point): boolean =>
  bot.entity.position.offset(0, EYE_HEIGHT, 0).distanceTo(blockCentre(bot, target)) <= HAND_REACH_BLOCKS;

const findItem = (bot: Bot, name: string) => bot.inventory.items().find((item) => item.name === name);

export const hotbarSelect = async (bot: Bot, action: Of<'hotbar_select'>): Promise<Outcome> => {
  bot.setQuickBarSlot(action.slot);
  return completed({ kind: 'hotbar', slot: bot.quickBarSlot });
};

export const equip = async (bot: Bot, action: Of<'equip'>, signal: AbortSignal): Promise<Outcome> => {
  const item = findItem(bot, action.item);
  if (item === undefined) return failed('no_such_item');
  await untilAborted(bot.equip(item, action.destination), signal);
  const slot = bot.getEquipmentDestSlot(action.destination);
  const worn = action.destination === 'hand' ? bot.heldItem : bot.inventory.slots[slot];
  return completed({ kind: 'equipped', destination: action.destination, item: worn?.name ?? null });
};

export const mine = async (bot: Bot, action: Of<'mine'>, signal: AbortSignal): Promise<Outcome> => {
  const block = bot.blockAt(vec(bot, action.target));
  if (block === null) return failed('not_loaded');
  if (block.name === 'air') return failed('nothing_to_mine', blockNow(bot, action.target));
  if (!withinHandReach(bot, action.target)) return failed('out_of_reach', blockNow(bot, action.target));
  if (!block.diggable) return failed('not_diggable', blockNow(bot, action.target));
  await untilAborted(bot.dig(block, true), signal);
  const after = blockNow(bot, action.target);
  return 'block' in after && after.block === 'air' ? completed(after) : failed('still_there', after);
};

/** The six neighbours: a solid one is the face the new block is placed against. */
const NEIGHBOURS = [
  [0, -1, 0],
  [0, 1, 0],
  [-1, 0, 0],
  [1, 0, 0],
  [0, 0, -1],
  [0, 0, 1],
] as const;

const supportingFace = (bot: Bot, target: Vec) => {
  for (const [dx, dy, dz] of NEIGHBOURS) {
    const neighbour = bot.blockAt(target.offset(dx, dy, dz));
    if (neighbour !== null && neighbour.boundingBox === 'block') {
      return { reference: neighbour, face: target.clone().set(-dx, -dy, -dz) };
    }
  }
  return undefined;
};

/** The player's own body occupies its feet block and the one above: the server refuses a block there. */
const insidePlayer = (bot: Bot, target: Vec): boolean => {
  const feet = bot.entity.position.floored();
  return target.x === feet.x && target.z === feet.z && (target.y === feet.y || target.y === feet.y + 1);
};

export const place = async (bot: Bot, action: Of<'place'>, signal: AbortSignal): Promise<Outcome> => {
  const target = vec(bot, action.target).floored();
  const existing = bot.blockAt(target);
  if (existing === null) return failed('not_loaded');
  if (existing.boundingBox !== 'empty') return failed('occupied', blockNow(bot, action.target));
  if (insidePlayer(bot, target)) return failed('occupied_by_player', blockNow(bot, action.target));
  if (!withinHandReach(bot, action.target)) return failed('out_of_reach', blockNow(bot, action.target));
  const item = findItem(bot, action.item);
  if (item === undefined) return failed('no_such_item');
  const support = supportingFace(bot, target);
  if (support === undefined) return failed('no_supporting_face', blockNow(bot, action.target));
  await untilAborted(bot.equip(item, 'hand'), signal);
  await untilAborted(bot.placeBlock(support.reference, support.face), signal);
  const after = blockNow(bot, action.target);
  return 'block' in after && after.block === action.item ? completed(after) : failed('not_placed', after);
};

export const interact = async (bot: Bot, action: Of<'interact'>, signal: AbortSignal): Promise<Outcome> => {
  const block = bot.blockAt(vec(bot, action.target));
  if (block === null) return failed('not_loaded');
  if (block.name === 'air') return failed('nothing_to_interact', blockNow(bot, action.target));
  if (!withinHandReach(bot, action.target)) return failed('out_of_reach', blockNow(bot, action.target));
  await untilAborted(bot.activateBlock(block), signal);
  return completed(blockNow(bot, action.target));
};
