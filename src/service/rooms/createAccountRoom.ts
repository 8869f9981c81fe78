import { RoomTitleSchema } from '../../api/roomSchemas.js';
import { projectRoom, type RoomView } from '../../api/roomViews.js';
import { HelixError } from '../../domain/errors.js';
import { parseInput } from '../validate.js';
import { requireRoomFeatureFor } from './access.js';
import type { RoomDeps } from './deps.js';
import { insertNewRoom } from './newRoom.js';

const noTenant = (message: string): HelixError =>
  new HelixError('invalid_request', { issues: [{ path: 'account', message }] });

/**
 * The tenant a console room belongs to: the one tenant of the account's active agent bindings. A
 * room is visible to the account's agents only through a principal of its tenant (RREST-03), so a
 * console room lands where the account's agents are. An account without an agent binding, or with
 * bindings in several tenants, has no one answer: the operator picks with `helix rooms create --tenant`.
 */
const consoleTenantHash = async (deps: RoomDeps, accountId: string): Promise<string> => {
  const bindings = await deps.store.read.bindings.listForAccount(accountId);
  const tenants = new Set(bindings.filter((b) => b.status === 'active').map((b) => b.tenantHash));
  const [only, ...others] = tenants;
  if (only === undefined)
    throw noTenant(
      'has no active agent binding, so no tenant for the room: link an agent identity first (helix accounts link)',
    );
  if (others.length > 0)
    throw noTenant('has agent bindings in several tenants: the operator picks one (helix rooms create --tenant)');
  return only;
};

/**
 * The signed-in console's "Create room" (D-09): the account becomes the owner member with a consent
 * receipt for version 1, exactly as when its agent creates a room, minus an agent owner. The policy
 * lock applies (SLR-11).
 */
export const createAccountRoom = async (deps: RoomDeps, accountId: string, title: string): Promise<RoomView> => {
  await requireRoomFeatureFor(deps, accountId);
  const validTitle = parseInput(RoomTitleSchema, title);
  const tenantHash = await consoleTenantHash(deps, accountId);
  const now = deps.now();
  const { room, member } = await deps.store.transaction((uow) =>
    insertNewRoom(uow, { title: validTitle, ownerAccountId: accountId, tenantHash, ownerHash: null, now }),
  );
  return projectRoom(room, member);
};
