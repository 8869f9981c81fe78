// What running one action produced, before it is wrapped into `actions/result` (actionWire.ts), and
// the small helpers every action kind shares: points, distances, waiting that a stop can interrupt.
import type { Bot } from 'mineflayer';
import type { Action, ActionResultRequest, Postcondition } from '../actionWire.js';

export interface Outcome {
  readonly status: ActionResultRequest['status'];
  /** A machine reason for anything but `completed` (`unreachable`, `no_such_item`, `out_of_reach`…). */
  readonly reason: string | null;
  readonly postcondition: Postcondition | null;
}

export type Point = { readonly x: number; readonly y: number; readonly z: number };
export type Vec = ReturnType<Bot['entity']['position']['clone']>;

export const completed = (postcondition: Postcondition): Outcome => ({
  status: 'completed',
  reason: null,
  postcondition,
});
export const failed = (reason: string, postcondition: Postcondition | null = null): Outcome => ({
  status: 'failed',
  reason,
  postcondition,
});

/** A Vec3 at `point`, built from the player's own (the connector does not depend on vec3 itself). */
export const vec = (bot: Bot, point: Point): Vec => bot.entity.position.clone().set(point.x, point.y, point.z);

/** The centre of the block at `point`. */
export const blockCentre = (bot: Bot, point: Point): Vec =>
  vec(bot, { x: Math.floor(point.x) + 0.5, y: Math.floor(point.y) + 0.5, z: Math.floor(point.z) + 0.5 });

const round = (n: number): number => Math.round(n * 100) / 100;

/** Where the player is now, and how far from `target` (null when the action had none). */
export const positionNow = (bot: Bot, target: Vec | null): Postcondition => {
  const { x, y, z } = bot.entity.position;
  return {
    kind: 'position',
    position: { x: round(x), y: round(y), z: round(z) },
    distance_to_target: target === null ? null : round(bot.entity.position.distanceTo(target)),
  };
};

/** The block at `target` as the player's world (kept in step by the server) has it now. */
export const blockNow = (bot: Bot, target: Point): Postcondition => ({
  kind: 'block',
  target: { x: target.x, y: target.y, z: target.z },
  block: bot.blockAt(vec(bot, target))?.name ?? 'unknown',
});

/** The target of a positional kind, or null (walk, jump, hotbar_select, equip, follow). */
export const actionTarget = (action: Action): Point | null => ('target' in action ? action.target : null);

/** Rejects as soon as `signal` aborts, so a stop does not wait for the game to answer. */
export const untilAborted = <T>(work: Promise<T>, signal: AbortSignal): Promise<T> => {
  work.catch(() => undefined); // a late rejection after the abort is expected, not unhandled
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
};

/** Waits `ticks` game ticks unless `signal` aborts first. */
export const ticks = (bot: Bot, n: number, signal: AbortSignal): Promise<void> =>
  untilAborted(bot.waitForTicks(n), signal);
