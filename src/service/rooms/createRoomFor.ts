import { RoomTitleSchema } from '../../api/roomSchemas.js';
import { projectRoom, type RoomView } from '../../api/roomViews.js';
import { HelixError } from '../../domain/errors.js';
import { tenantHash } from '../../domain/identityHashes.js';
import { parseInput } from '../validate.js';
import type { RoomDeps } from './deps.js';
import { insertNewRoom } from './newRoom.js';

/**
 * The operator's CLI (D-09, `helix rooms create`): creates a room owned by an active account in a
 * tenant, as if the account's agent had created it, minus an agent owner (no idempotency key: the
 * operator sees the result at once). The account policy is not consulted: the operator sets it.
 */
export const createRoomFor = async (
  deps: RoomDeps,
  accountId: string,
  tenantId: string,
  title: string,
): Promise<RoomView> => {
  const validTitle = parseInput(RoomTitleSchema, title);
  const account = await deps.store.read.accounts.get(accountId);
  if (account === undefined || account.status !== 'active')
    throw new HelixError('not_found', {}, 'No active account has that id.');
  const now = deps.now();
  const { room, member } = await deps.store.transaction((uow) =>
    insertNewRoom(uow, {
      title: validTitle,
      ownerAccountId: accountId,
      tenantHash: tenantHash(deps.instanceSecret, tenantId),
      ownerHash: null,
      now,
    }),
  );
  return projectRoom(room, member);
};
