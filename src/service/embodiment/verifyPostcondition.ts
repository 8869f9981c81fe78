import { ACTION_LANE_LIMITS, type Action, type Postcondition } from '../../api/environmentActionSchemas.js';

type Position = { readonly x: number; readonly y: number; readonly z: number };

const distance = (a: Position, b: Position): number => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
const sameBlock = (a: Position, b: Position): boolean =>
  Math.floor(a.x) === Math.floor(b.x) && Math.floor(a.y) === Math.floor(b.y) && Math.floor(a.z) === Math.floor(b.z);
/** A player stands at a block's centre, not its corner: allow one block beyond the requested range. */
const ARRIVAL_TOLERANCE_BLOCKS = 1;

/**
 * MC-12: whether the postcondition the connector observed shows the action done. Helix checks what
 * the report says against the action it issued (the connector reads the server's state; Helix
 * cannot read the world itself): navigate_to ended within its range of the target, mine left air
 * at the target, place left the placed item there, look/hotbar/equip show the asked state. Motion
 * without a target (walk, jump, follow) needs a position report.
 */
export const verifyPostcondition = (action: Action, post: Postcondition | null): boolean => {
  if (post === null) return false;
  switch (action.kind) {
    case 'navigate_to':
      return (
        post.kind === 'position' &&
        post.distance_to_target !== null &&
        post.distance_to_target <= action.range &&
        distance(post.position, action.target) <= action.range + ARRIVAL_TOLERANCE_BLOCKS
      );
    case 'walk':
    case 'jump':
    case 'follow':
      return post.kind === 'position';
    case 'look_at':
      return post.kind === 'look';
    case 'hotbar_select':
      return post.kind === 'hotbar' && post.slot === action.slot;
    case 'equip':
      return post.kind === 'equipped' && post.destination === action.destination && post.item === action.item;
    case 'mine':
      return post.kind === 'block' && sameBlock(post.target, action.target) && post.block === 'air';
    case 'place':
      return post.kind === 'block' && sameBlock(post.target, action.target) && post.block === action.item;
    case 'interact':
      return post.kind === 'block' && sameBlock(post.target, action.target);
  }
};

/** M-03: a stop counts only with a stationary postcondition under the epsilon; a graceful stop does not. */
export const verifyStationary = (post: Postcondition | null): boolean =>
  post !== null && post.kind === 'stationary' && post.drift_blocks < ACTION_LANE_LIMITS.stationaryEpsilonBlocks;
