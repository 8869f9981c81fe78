import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownershipOf, type Principal } from '../src/auth/principal.js';
import type { HelixError } from '../src/domain/errors.js';
import { acceptConsent } from '../src/service/rooms/acceptConsent.js';
import { acceptInvite } from '../src/service/rooms/acceptInvite.js';
import { bindRun } from '../src/service/rooms/bindRun.js';
import { claimChatBinding } from '../src/service/rooms/claimChatBinding.js';
import { createInvite } from '../src/service/rooms/createInvite.js';
import { createRoom } from '../src/service/rooms/createRoom.js';
import { createRoomFor } from '../src/service/rooms/createRoomFor.js';
import type { RoomDeps } from '../src/service/rooms/deps.js';
import { inspectRoom } from '../src/service/rooms/inspectRoom.js';
import { listMembers } from '../src/service/rooms/listMembers.js';
import { listRooms } from '../src/service/rooms/listRooms.js';
import { publishConsentVersion } from '../src/service/rooms/publishConsentVersion.js';
import { removeMember } from '../src/service/rooms/removeMember.js';
import { requestCommand } from '../src/service/rooms/requestCommand.js';
import { setMemberRole } from '../src/service/rooms/setMemberRole.js';
import { unbindChat } from '../src/service/rooms/unbindChat.js';
import { unbindRun } from '../src/service/rooms/unbindRun.js';
import { baseRun } from './support/runRecord.js';
import {
  insertActiveAccounts,
  refusal,
  roomFeatureUnlessLocked,
  roomPrincipal,
  roomTestDeps,
} from './support/roomDeps.js';
import { storeFlavours, type TestStore } from './support/stores.js';

const SECRET = 'room-test-instance-secret';
const ALL = 'helix.rooms.read helix.rooms.manage helix.agent_runs.write helix.agent_runs.read';
const FLAGS = {
  answer_authority: false,
  assistant_answer: false,
  terminal_eligible: false,
  raw_content_included: false,
};

const principal = (accountId: string, tenantId = 'acme', scopes = ALL): Principal =>
  roomPrincipal(accountId, scopes, tenantId);

describe.each(storeFlavours())('room use cases on $name', (flavour) => {
  let t: TestStore;
  let deps: RoomDeps;
  let clock = 1_800_000_000_000;
  const locked = new Set<string>();
  const policy = roomFeatureUnlessLocked(locked);

  const alice = principal('acct_alice');
  const bob = principal('acct_bob');
  let runSeq = 0;
  /** A run owned by the principal, as startRun would have stored it. */
  const ownedRun = async (p: Principal): Promise<string> => {
    const runId = `run_room${String(++runSeq).padStart(8, '0')}`;
    await t.store.read.runs.insert({ ...baseRun(runId), ownerHash: ownershipOf(p, SECRET).ownerHash });
    return runId;
  };
  const newRoom = async (p: Principal, title = 'Build site'): Promise<string> =>
    (await createRoom(deps, p, `key-${++runSeq}-create`, { title })).body.room.room_id;
  /** Bob joins alice's room with a role and, unless told otherwise, accepts its current consent. */
  const join = async (roomId: string, p: Principal, role: string, consent = true) => {
    const { token } = await createInvite(deps, 'acct_alice', roomId, { role });
    const joined = await acceptInvite(deps, p.accountId, token);
    if (consent) await acceptConsent(deps, p.accountId, roomId, joined.consent.version);
  };

  beforeAll(async () => {
    t = await flavour.create();
    await insertActiveAccounts(t.store, ['acct_alice', 'acct_bob', 'acct_carol'], clock);
    deps = roomTestDeps(t.store, SECRET, policy, () => ++clock);
  });
  afterAll(async () => t.dispose());

  it('RREST-02, D-09: the creator becomes the owner member with a consent receipt for version 1; receipts carry the false-authority flags (SLR-07)', async () => {
    const created = await createRoom(deps, alice, 'create-key-0001', { title: '  Build site  ' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      schema: 'helix.shared_live_room.create_receipt.v1',
      room: { title: 'Build site', status: 'active', consent_version: 1 },
      ...FLAGS,
    });
    expect(created.body.room.room_id).toMatch(/^room_[0-9a-f]{24}$/);
    expect(created.body.room.membership).toMatchObject({
      role: 'owner',
      accepted_consent_version: 1,
      consent_current: true,
    });
    const owner = await t.store.read.rooms.getMember(created.body.room.room_id, 'acct_alice');
    expect(owner?.consentReceiptRef).toMatch(/^rcr_[0-9a-f]{32}$/);
  });

  it('SLR-03: same key and body replays the room; another body under the key is idempotency_conflict; a bad key is refused', async () => {
    const first = await createRoom(deps, alice, 'idem-key-0001', { title: 'Quarry' });
    const again = await createRoom(deps, alice, 'idem-key-0001', { title: 'Quarry' });
    expect(again).toMatchObject({ status: 201, replayed: true });
    expect(again.body.room.room_id).toBe(first.body.room.room_id);
    expect(await refusal(createRoom(deps, alice, 'idem-key-0001', { title: 'Other' }))).toMatchObject({
      code: 'idempotency_conflict',
      status: 422,
    });
    // Scoped by owner: bob's same key is his own.
    const bobs = await createRoom(deps, bob, 'idem-key-0001', { title: 'Quarry' });
    expect(bobs.body.room.room_id).not.toBe(first.body.room.room_id);
    expect(await refusal(createRoom(deps, alice, 'short', { title: 'Quarry' }))).toMatchObject({
      code: 'idempotency_key_required',
    });
  });

  it('SLR-08, SLR-05: credential-shaped, empty, over-long or control-character titles and unknown fields are refused', async () => {
    const bad = [
      { title: 'sk-proj-abcdefghijklmnopqrstuvwx' },
      { title: `hlxinv_${'A'.repeat(43)}` },
      { title: '   ' },
      { title: 'x'.repeat(201) },
      { title: 'line\nbreak' },
      { title: 'ok', owner_account_id: 'acct_bob' },
    ];
    for (const [i, body] of bad.entries()) {
      expect(await refusal(createRoom(deps, alice, `bad-title-${i}-key`, body))).toMatchObject({
        code: 'invalid_request',
      });
    }
    expect(await refusal(createRoomFor(deps, 'acct_alice', 'acme', 'Bearer abcdefghijklmnopqrstuvwxyz'))).toMatchObject(
      {
        code: 'invalid_request',
      },
    );
  });

  it('RREST-01, RREST-03: rooms are visible to current members of the tenant only; everything else is not_found', async () => {
    const roomId = await newRoom(alice);
    const listed = await listRooms(deps, alice);
    expect(listed.body).toMatchObject({ schema: 'helix.shared_live_room.list_receipt.v1', ...FLAGS });
    expect(listed.body.rooms.map((r) => r.room_id)).toContain(roomId);
    expect((await listRooms(deps, bob)).body.rooms.map((r) => r.room_id)).not.toContain(roomId);

    const inspected = await inspectRoom(deps, alice, roomId);
    expect(inspected.body).toMatchObject({ schema: 'helix.shared_live_room.inspect_receipt.v1', ...FLAGS });
    // Another account, the same account in another tenant, an unknown id, a malformed one, the literal segments.
    const aliceElsewhere = principal('acct_alice', 'other-tenant');
    for (const [p, id] of [
      [bob, roomId],
      [aliceElsewhere, roomId],
      [alice, `room_${'0'.repeat(24)}`],
      [alice, 'run-bindings'],
      [alice, 'chat-bindings'],
    ] as const) {
      expect(await refusal(inspectRoom(deps, p, id))).toMatchObject({ code: 'not_found', status: 404 });
    }
    expect((await listRooms(deps, aliceElsewhere)).body.rooms).toEqual([]);
  });

  it('RREST-04, BRE-09: binds an owned run with participant, role, consent version and receipt; an exact retry returns it', async () => {
    const roomId = await newRoom(alice);
    const runId = await ownedRun(alice);
    const bound = await bindRun(deps, alice, { room_id: roomId, run_id: runId });
    expect(bound.status).toBe(201);
    expect(bound.body).toMatchObject({
      schema: 'helix.shared_live_room.run_bind_receipt.v1',
      binding_status: 'active',
      room_id: roomId,
      run_id: runId,
      participant_role: 'owner',
      consent_version: 1,
      ...FLAGS,
    });
    const row = await t.store.read.rooms.getRunBinding(bound.body.binding_ref);
    const owner = await t.store.read.rooms.getMember(roomId, 'acct_alice');
    expect(row).toMatchObject({ accountId: 'acct_alice', role: 'owner', consentVersion: 1, status: 'active' });
    expect(row?.consentReceiptRef).toBe(owner?.consentReceiptRef);

    const retry = await bindRun(deps, alice, { room_id: roomId, run_id: runId });
    expect(retry).toMatchObject({ status: 200, body: { binding_ref: bound.body.binding_ref } });
    const otherRoom = await newRoom(alice);
    expect(await refusal(bindRun(deps, alice, { room_id: otherRoom, run_id: runId }))).toMatchObject({
      code: 'room_binding_conflict',
      status: 409,
    });
  });

  it('RREST-04, SLR-06: another owner’s run, another tenant’s room or a non-member’s room is not_found; a finished run cannot be bound; bad input is a 400', async () => {
    const roomId = await newRoom(alice);
    const bobsRun = await ownedRun(bob);
    expect(await refusal(bindRun(deps, alice, { room_id: roomId, run_id: bobsRun }))).toMatchObject({
      code: 'not_found',
    });
    expect(await refusal(bindRun(deps, bob, { room_id: roomId, run_id: bobsRun }))).toMatchObject({
      code: 'not_found',
    });
    const elsewhere = principal('acct_alice', 'other-tenant');
    const elsewhereRun = await ownedRun(elsewhere);
    expect(await refusal(bindRun(deps, elsewhere, { room_id: roomId, run_id: elsewhereRun }))).toMatchObject({
      code: 'not_found',
    });
    const finished = await ownedRun(alice);
    const run = (await t.store.read.runs.get(finished))!;
    await t.store.read.runs.compareAndSet({ ...run, lifecycle: 'completed', version: 2 }, 1);
    expect(await refusal(bindRun(deps, alice, { room_id: roomId, run_id: finished }))).toMatchObject({
      code: 'run_not_active',
    });
    expect(await refusal(bindRun(deps, alice, { room_id: roomId, run_id: 'nope' }))).toMatchObject({
      code: 'invalid_request',
    });
    expect(await refusal(bindRun(deps, alice, { room_id: roomId, run_id: bobsRun, owner_hash: 'x' }))).toMatchObject({
      code: 'invalid_request',
    });
  });

  it('RREST-04: an observer may not bind; a member must accept the current consent version first', async () => {
    const roomId = await newRoom(alice);
    await join(roomId, bob, 'observer');
    const run = await ownedRun(bob);
    expect(await refusal(bindRun(deps, bob, { room_id: roomId, run_id: run }))).toMatchObject({
      code: 'room_role_forbidden',
      status: 403,
    });
    const carol = principal('acct_carol');
    await join(roomId, carol, 'member', false);
    const carolsRun = await ownedRun(carol);
    expect(await refusal(bindRun(deps, carol, { room_id: roomId, run_id: carolsRun }))).toMatchObject({
      code: 'room_consent_required',
      status: 409,
    });
    await acceptConsent(deps, 'acct_carol', roomId, 1);
    expect((await bindRun(deps, carol, { room_id: roomId, run_id: carolsRun })).status).toBe(201);
  });

  it('D-09: a consent version published after binding: rebinding needs the member to accept it again', async () => {
    const roomId = await newRoom(alice);
    await join(roomId, bob, 'member');
    const run = await ownedRun(bob);
    const first = await bindRun(deps, bob, { room_id: roomId, run_id: run });
    expect(
      await publishConsentVersion(deps, 'acct_alice', roomId, 'Runs bound here are visible to all members.'),
    ).toEqual({
      room_id: roomId,
      consent_version: 2,
    });
    await unbindRun(deps, bob, first.body.binding_ref);
    expect(await refusal(bindRun(deps, bob, { room_id: roomId, run_id: run }))).toMatchObject({
      code: 'room_consent_required',
    });
    expect(await refusal(acceptConsent(deps, 'acct_bob', roomId, 1))).toMatchObject({ code: 'room_consent_required' });
    await acceptConsent(deps, 'acct_bob', roomId, 2);
    const rebound = await bindRun(deps, bob, { room_id: roomId, run_id: run });
    expect(rebound.body).toMatchObject({ consent_version: 2, binding_status: 'active' });
    // WD-08: the replacement is a new binding with a new ref; the old row stays revoked (WD-09).
    expect(rebound.body.binding_ref).not.toBe(first.body.binding_ref);
    expect((await t.store.read.rooms.getRunBinding(first.body.binding_ref))?.status).toBe('revoked');
    // Only owners publish.
    expect(await refusal(publishConsentVersion(deps, 'acct_bob', roomId, 'mine now'))).toMatchObject({
      code: 'room_role_forbidden',
    });
  });

  it('BRE-04: lowering a member to observer, or removing it, revokes its bindings and it can no longer bind or see the room', async () => {
    const roomId = await newRoom(alice);
    await join(roomId, bob, 'member');
    const run = await ownedRun(bob);
    const bound = await bindRun(deps, bob, { room_id: roomId, run_id: run });
    const demoted = await setMemberRole(deps, 'acct_alice', roomId, 'acct_bob', 'observer');
    expect(demoted).toMatchObject({ member: { role: 'observer' }, revoked_bindings: 1 });
    expect((await t.store.read.rooms.getRunBinding(bound.body.binding_ref))?.status).toBe('revoked');
    expect(await refusal(bindRun(deps, bob, { room_id: roomId, run_id: run }))).toMatchObject({
      code: 'room_role_forbidden',
    });

    await setMemberRole(deps, 'acct_alice', roomId, 'acct_bob', 'member');
    const again = await bindRun(deps, bob, { room_id: roomId, run_id: run });
    expect(await removeMember(deps, 'acct_alice', roomId, 'acct_bob')).toMatchObject({ revoked_bindings: 1 });
    expect((await t.store.read.rooms.getRunBinding(again.body.binding_ref))?.status).toBe('revoked');
    expect(await refusal(inspectRoom(deps, bob, roomId))).toMatchObject({ code: 'not_found' });
    expect(await refusal(bindRun(deps, bob, { room_id: roomId, run_id: run }))).toMatchObject({ code: 'not_found' });
    // The removed member keeps its row; the creator cannot be demoted or removed; non-owners manage nothing.
    const { members } = await listMembers(deps, 'acct_alice', roomId);
    expect(members.find((m) => m.account_id === 'acct_bob')?.removed_at).not.toBeNull();
    expect(await refusal(setMemberRole(deps, 'acct_alice', roomId, 'acct_alice', 'member'))).toMatchObject({
      code: 'room_role_forbidden',
    });
    expect(await refusal(removeMember(deps, 'acct_alice', roomId, 'acct_alice'))).toMatchObject({
      code: 'room_role_forbidden',
    });
    expect(await refusal(createInvite(deps, 'acct_bob', roomId, { role: 'owner' }))).toMatchObject({
      code: 'not_found',
    });
  });

  it('D-09: an invite is single-use and expires; the token is stored only as its hash', async () => {
    const roomId = await newRoom(alice);
    const issued = await createInvite(deps, 'acct_alice', roomId, { role: 'member', ttlMs: 60_000 });
    expect(issued.token).toMatch(/^hlxinv_[A-Za-z0-9_-]{43}$/);
    const joined = await acceptInvite(deps, 'acct_bob', issued.token);
    expect(joined).toMatchObject({ room_id: roomId, member: { role: 'member', accepted_consent_version: null } });
    expect(await refusal(acceptInvite(deps, 'acct_carol', issued.token))).toMatchObject({ code: 'not_found' });

    const expiring = await createInvite(deps, 'acct_alice', roomId, { role: 'member', ttlMs: 60_000 });
    clock += 60_001;
    expect(await refusal(acceptInvite(deps, 'acct_carol', expiring.token))).toMatchObject({ code: 'not_found' });
    expect(await refusal(createInvite(deps, 'acct_alice', roomId, { role: 'member', ttlMs: 1 }))).toMatchObject({
      code: 'invalid_request',
    });
    expect(await refusal(createInvite(deps, 'acct_alice', roomId, { role: 'admin' }))).toMatchObject({
      code: 'invalid_request',
    });
  });

  it('SLR-11, WD-05, MRT-11: the policy lock blocks reads, creation, binds and commands, never the withdrawals', async () => {
    const roomId = await newRoom(alice);
    const run = await ownedRun(alice);
    const bound = await bindRun(deps, alice, { room_id: roomId, run_id: run });
    const chatRef = `rcb_${'1'.repeat(32)}`;
    await t.store.read.rooms.insertChatBinding({
      bindingRef: chatRef,
      runId: run,
      ownerHash: ownershipOf(alice, SECRET).ownerHash,
      chatSessionId: null,
      status: 'active',
      createdAt: clock,
      revokedAt: null,
    });
    locked.add('acct_alice');
    try {
      const lockedOut = { code: 'feature_not_enabled', status: 403, feature: 'shared_live_room' };
      expect(await refusal(listRooms(deps, alice))).toEqual(lockedOut);
      expect(await refusal(inspectRoom(deps, alice, roomId))).toEqual(lockedOut);
      expect(await refusal(createRoom(deps, alice, 'locked-key-01', { title: 'x' }))).toEqual(lockedOut);
      expect(await refusal(bindRun(deps, alice, { room_id: roomId, run_id: run }))).toEqual(lockedOut);
      expect(await refusal(requestCommand(deps, alice, roomId, { command: 'time set day' }))).toEqual(lockedOut);
      expect(await refusal(createInvite(deps, 'acct_alice', roomId, { role: 'member' }))).toEqual(lockedOut);
      expect((await unbindRun(deps, alice, bound.body.binding_ref)).body.revocation_status).toBe('revoked');
      expect((await unbindChat(deps, alice, chatRef)).body.revocation_status).toBe('revoked');
    } finally {
      locked.delete('acct_alice');
    }
  });

  it('SLR-12, SLR-13: scope failures name every missing scope and come before the policy', async () => {
    locked.add('acct_alice');
    try {
      const manageOnly = principal('acct_alice', 'acme', 'helix.rooms.manage');
      expect(await refusal(bindRun(deps, manageOnly, {}))).toMatchObject({
        code: 'insufficient_scope',
        scope: 'helix.agent_runs.write',
      });
      expect(await refusal(unbindRun(deps, principal('acct_alice', 'acme', 'helix.rooms.read'), 'x'))).toMatchObject({
        code: 'insufficient_scope',
        scope: 'helix.rooms.manage helix.agent_runs.write',
      });
      expect(await refusal(listRooms(deps, principal('acct_alice', 'acme', 'helix.agent_runs.read')))).toMatchObject({
        code: 'insufficient_scope',
        scope: 'helix.rooms.read',
      });
    } finally {
      locked.delete('acct_alice');
    }
    const unlinked = { ...principal('free-form'), linkedAccount: false };
    expect(await refusal(listRooms(deps, unlinked))).toMatchObject({ code: 'account_not_linked' });
  });

  it('WD-01..04: withdrawal by opaque ref: revoked, then already_revoked; another owner or tenant gets not_found', async () => {
    const roomId = await newRoom(alice);
    const run = await ownedRun(alice);
    const { binding_ref } = (await bindRun(deps, alice, { room_id: roomId, run_id: run })).body;
    for (const stranger of [bob, principal('acct_alice', 'other-tenant')]) {
      expect(await refusal(unbindRun(deps, stranger, binding_ref))).toMatchObject({ code: 'not_found' });
    }
    expect(await refusal(unbindRun(deps, alice, 'run_notabindingref'))).toMatchObject({ code: 'not_found' });
    expect(await refusal(unbindChat(deps, alice, binding_ref))).toMatchObject({ code: 'not_found' });
    const first = await unbindRun(deps, alice, binding_ref);
    expect(first.body).toEqual({
      schema: 'helix.shared_live_room.run_unbind_receipt.v1',
      binding_ref,
      binding_status: 'revoked',
      revocation_status: 'revoked',
      ...FLAGS,
    });
    expect((await unbindRun(deps, alice, binding_ref)).body.revocation_status).toBe('already_revoked');
  });

  it('RREST-10: a command request always answers command_execution_not_enabled (501), after membership', async () => {
    const roomId = await newRoom(alice);
    expect(await refusal(requestCommand(deps, alice, roomId, { command: 'give @p diamond' }))).toEqual({
      code: 'command_execution_not_enabled',
      status: 501,
      execution_enabled: false,
    });
    expect(await refusal(requestCommand(deps, bob, roomId, { command: 'give @p diamond' }))).toMatchObject({
      code: 'not_found',
    });
  });

  it('RREST-06, SLR-10: a chat claim checks scopes, the lock, the strict body and the owned run; an unknown handle is chat_claim_not_found', async () => {
    const handle = `hlxclm_${'A'.repeat(43)}`;
    const run = await ownedRun(alice);
    expect(await refusal(claimChatBinding(deps, alice, { claim_handle: handle, run_id: run }))).toMatchObject({
      code: 'chat_claim_not_found',
      status: 404,
    });
    // Another owner's run is not found before any handle is looked at; a malformed handle is a 400 that does not echo it.
    expect(await refusal(claimChatBinding(deps, bob, { claim_handle: handle, run_id: run }))).toMatchObject({
      code: 'not_found',
    });
    const malformed = await refusal(claimChatBinding(deps, alice, { claim_handle: 'hlxclm_short', run_id: run }));
    expect(malformed).toMatchObject({ code: 'invalid_request', status: 400 });
    expect(JSON.stringify(malformed)).not.toContain('hlxclm_short');
    expect(
      await refusal(claimChatBinding(deps, alice, { claim_handle: handle, run_id: run, account_id: 'acct_bob' })),
    ).toMatchObject({ code: 'invalid_request' });
    expect(
      await refusal(
        claimChatBinding(deps, principal('acct_alice', 'acme', 'helix.rooms.manage'), {
          claim_handle: handle,
          run_id: run,
        }),
      ),
    ).toMatchObject({ code: 'insufficient_scope', scope: 'helix.agent_runs.write' });
    locked.add('acct_alice');
    try {
      expect(await refusal(claimChatBinding(deps, alice, { claim_handle: handle, run_id: run }))).toMatchObject({
        code: 'feature_not_enabled',
      });
    } finally {
      locked.delete('acct_alice');
    }
  });

  it('RREST-04, WD-09: 50 concurrent binds of one run to two rooms leave exactly one active binding', async () => {
    const [roomA, roomB] = [await newRoom(alice), await newRoom(alice)];
    const run = await ownedRun(alice);
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        bindRun(deps, alice, { room_id: i % 2 === 0 ? roomA : roomB, run_id: run }).then(
          (r) => ({ ok: true as const, ref: r.body.binding_ref, room: r.body.room_id, status: r.status }),
          (err: HelixError) => ({ ok: false as const, code: err.code }),
        ),
      ),
    );
    const wins = outcomes.filter((o) => o.ok);
    expect(new Set(wins.map((w) => w.ref)).size).toBe(1);
    expect(new Set(wins.map((w) => w.room)).size).toBe(1);
    expect(wins.filter((w) => w.status === 201)).toHaveLength(1);
    // Every loser asked for the other room.
    const losers = outcomes.filter((o) => !o.ok);
    expect(losers.every((l) => l.code === 'room_binding_conflict')).toBe(true);
    expect(wins.length + losers.length).toBe(50);
    const active = await t.store.read.rooms.getActiveRunBinding(run);
    expect(active?.bindingRef).toBe(wins[0]?.ref);
  });

  it('D-09: the operator creates a room for an active account; the account is its owner member', async () => {
    const view = await createRoomFor(deps, 'acct_carol', 'acme', 'Operator room');
    expect(view).toMatchObject({ title: 'Operator room', membership: { role: 'owner', consent_current: true } });
    const carolsRooms = await listRooms(deps, principal('acct_carol'));
    expect(carolsRooms.body.rooms.map((r) => r.room_id)).toContain(view.room_id);
    expect(await refusal(createRoomFor(deps, 'acct_nobody', 'acme', 'x'))).toMatchObject({ code: 'not_found' });
  });
});
