import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HelixError } from '../src/domain/errors.js';
import { ScopeSet } from '../src/domain/scopes.js';
import { linkIdentity } from '../src/service/accounts/linkIdentity.js';
import { acceptInvite } from '../src/service/rooms/acceptInvite.js';
import { createAccountRoom } from '../src/service/rooms/createAccountRoom.js';
import { createInvite } from '../src/service/rooms/createInvite.js';
import { createRoomFor } from '../src/service/rooms/createRoomFor.js';
import type { RoomDeps } from '../src/service/rooms/deps.js';
import { listAccountRooms } from '../src/service/rooms/listAccountRooms.js';
import { listAllRooms } from '../src/service/rooms/listAllRooms.js';
import { listRooms } from '../src/service/rooms/listRooms.js';
import { removeMember } from '../src/service/rooms/removeMember.js';
import { roomOverview } from '../src/service/rooms/roomOverview.js';
import { insertActiveAccounts, roomFeatureUnlessLocked, roomTestDeps } from './support/roomDeps.js';
import { storeFlavours, type TestStore } from './support/stores.js';

const SECRET = 'room-console-test-secret';

/** The HelixError code a call fails with; undefined when it succeeds. */
const refusal = async (call: Promise<unknown>): Promise<string | undefined> => {
  try {
    await call;
    return undefined;
  } catch (err) {
    if (!(err instanceof HelixError)) throw err;
    return err.code;
  }
};

describe.each(storeFlavours())('the console and operator room use cases on $name (D-09)', (flavour) => {
  let t: TestStore;
  let deps: RoomDeps;
  let clock = 1_800_000_000_000;
  const locked = new Set<string>();
  const policy = roomFeatureUnlessLocked(locked);
  const link = (accountId: string, tenantId: string, subject: string) =>
    linkIdentity(deps, accountId, { issuer: 'https://issuer.test/', tenantId, provider: 'idp', subject });

  beforeAll(async () => {
    t = await flavour.create();
    await insertActiveAccounts(t.store, ['acct_one', 'acct_two', 'acct_none', 'acct_lock'], clock);
    deps = roomTestDeps(t.store, SECRET, policy, () => ++clock);
    await link('acct_one', 'acme', 'one');
    await link('acct_two', 'acme', 'two-a');
    await link('acct_two', 'globex', 'two-b');
    await link('acct_lock', 'acme', 'lock');
    locked.add('acct_lock');
  });
  afterAll(async () => t.dispose());

  it("createAccountRoom: the room lands in the tenant of the account's agent binding, where its agent sees it", async () => {
    const room = await createAccountRoom(deps, 'acct_one', '  Console room ');
    expect(room).toMatchObject({ title: 'Console room', consent_version: 1, membership: { role: 'owner' } });
    const agent = {
      kind: 'oauth_jwt' as const,
      tenantId: 'acme',
      issuer: 'https://issuer.test/',
      subject: 'one',
      accountId: 'acct_one',
      scopes: ScopeSet.parse('helix.rooms.read'),
      credentialId: 'jti',
      linkedAccount: true,
    };
    const listed = await listRooms(deps, agent);
    expect(listed.body.rooms.map((r) => r.room_id)).toContain(room.room_id);
    expect((await t.store.read.rooms.getRoom(room.room_id))?.ownerHash).toBeNull();
  });

  it('createAccountRoom refuses without one tenant (none, several), a bad title, and under the policy lock', async () => {
    expect(await refusal(createAccountRoom(deps, 'acct_none', 'T'))).toBe('invalid_request');
    expect(await refusal(createAccountRoom(deps, 'acct_two', 'T'))).toBe('invalid_request');
    expect(await refusal(createAccountRoom(deps, 'acct_one', `hlxinv_${'a'.repeat(43)}`))).toBe('invalid_request');
    expect(await refusal(createAccountRoom(deps, 'acct_lock', 'T'))).toBe('feature_not_enabled');
  });

  it('listAccountRooms: every tenant, current memberships only; listAllRooms: every room with its member count', async () => {
    const acme = await createRoomFor(deps, 'acct_two', 'acme', 'Acme room');
    const globex = await createRoomFor(deps, 'acct_two', 'globex', 'Globex room');
    const { token } = await createInvite(deps, 'acct_two', globex.room_id, { role: 'member' });
    await acceptInvite(deps, 'acct_one', token);
    expect((await listAccountRooms(deps, 'acct_two')).map((r) => r.title)).toEqual(['Acme room', 'Globex room']);
    expect((await listAccountRooms(deps, 'acct_one')).map((r) => r.room_id)).toContain(globex.room_id);
    const all = await listAllRooms(deps);
    expect(all.find((r) => r.room_id === globex.room_id)).toMatchObject({ owner_account_id: 'acct_two', members: 2 });
    expect(all.find((r) => r.room_id === acme.room_id)).toMatchObject({ members: 1, consent_version: 1 });

    await removeMember(deps, 'acct_one', globex.room_id, 'acct_one');
    expect((await listAccountRooms(deps, 'acct_one')).map((r) => r.room_id)).not.toContain(globex.room_id);
    expect(await refusal(listAccountRooms(deps, 'acct_lock'))).toBe('feature_not_enabled');
  });

  it('roomOverview: a member sees the consent text and the current members; anyone else gets not found (RREST-03)', async () => {
    const room = await createRoomFor(deps, 'acct_two', 'acme', 'Overview');
    const { token } = await createInvite(deps, 'acct_two', room.room_id, { role: 'observer' });
    await acceptInvite(deps, 'acct_one', token);
    const seen = await roomOverview(deps, 'acct_one', room.room_id);
    expect(seen.room.membership).toMatchObject({ role: 'observer', consent_current: false });
    expect(seen.consent.version).toBe(1);
    expect(seen.consent.text).toContain('Members of this room can see the runs');
    expect(seen.creator_account_id).toBe('acct_two');
    expect(seen.members.map((m) => m.account_id)).toEqual(['acct_two', 'acct_one']);

    await removeMember(deps, 'acct_two', room.room_id, 'acct_one');
    expect(await refusal(roomOverview(deps, 'acct_one', room.room_id))).toBe('not_found');
    expect(await refusal(roomOverview(deps, 'acct_none', room.room_id))).toBe('not_found');
    expect(await refusal(roomOverview(deps, 'acct_two', 'room_nope'))).toBe('not_found');
    expect((await roomOverview(deps, 'acct_two', room.room_id)).members).toHaveLength(1);
  });
});
