import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownershipOf, type Principal } from '../src/auth/principal.js';
import { sha256Hex } from '../src/domain/hashing.js';
import type { RunRecord } from '../src/domain/run.js';
import { createChat } from '../src/service/chats/createChat.js';
import { deleteChat } from '../src/service/chats/deleteChat.js';
import { disconnectObserver } from '../src/service/chats/disconnectObserver.js';
import { inspectObserverBinding } from '../src/service/chats/inspectObserverBinding.js';
import { issueObserverBinding } from '../src/service/chats/issueObserverBinding.js';
import { listChats } from '../src/service/chats/listChats.js';
import { listObserverEvents } from '../src/service/chats/listObserverEvents.js';
import { openChat } from '../src/service/chats/openChat.js';
import { postMessage } from '../src/service/chats/postMessage.js';
import { renameChat } from '../src/service/chats/renameChat.js';
import { claimChatBinding } from '../src/service/rooms/claimChatBinding.js';
import type { RoomDeps } from '../src/service/rooms/deps.js';
import { unbindChat } from '../src/service/rooms/unbindChat.js';
import { baseRun } from './support/runRecord.js';
import {
  insertActiveAccounts,
  refusal,
  roomFeatureUnlessLocked,
  roomPrincipal,
  roomTestDeps,
} from './support/roomDeps.js';
import { storeFlavours, type TestStore } from './support/stores.js';

const SECRET = 'chat-test-instance-secret';
const ALL = 'helix.rooms.read helix.rooms.manage helix.agent_runs.write helix.agent_runs.read';
const API_KEY = `hlx_${'S'.repeat(32)}`;
const FLAGS = {
  answer_authority: false,
  assistant_answer: false,
  terminal_eligible: false,
  raw_content_included: false,
};
const ANSWER = 'SQLite checkpoints copy WAL frames back into the database file.';

describe.each(storeFlavours())('chats and the observer lane on $name', (flavour) => {
  let t: TestStore;
  let deps: RoomDeps;
  let clock = 1_800_000_000_000;
  const locked = new Set<string>();
  const alice = roomPrincipal('acct_alice', ALL);
  const bob = roomPrincipal('acct_bob', ALL);
  let runSeq = 0;

  const ownedRun = async (p: Principal, patch: Partial<RunRecord> = {}): Promise<string> => {
    const runId = `run_chat${String(++runSeq).padStart(8, '0')}`;
    await t.store.read.runs.insert({ ...baseRun(runId), ownerHash: ownershipOf(p, SECRET).ownerHash, ...patch });
    return runId;
  };
  /**
   * The run's turn ended: `authorized` is the verified product; otherwise a completed run whose
   * terminal candidate was not authorized, its text kept to prove the lane checks the authority.
   */
  const finishRun = async (runId: string, authorized: boolean, text = ANSWER) => {
    const run = (await t.store.read.runs.get(runId))!;
    const latestResult = {
      turn: 1,
      outcome: 'succeeded' as const,
      text: authorized ? text : 'An unverified candidate answer.',
      supporting_evidence_refs: [],
      output_fields: {},
      terminal_candidate_ref: 'cand_1',
      writer: 'helix.extractive',
      authority_reason: null,
      failure_code: null,
      failure_detail: null,
    };
    const finished: RunRecord = authorized
      ? { ...run, lifecycle: 'completed', completion: 'completed', terminalAuthority: 'authorized', latestResult }
      : { ...run, lifecycle: 'completed', terminalAuthority: 'not_authorized', latestResult };
    expect(await t.store.read.runs.compareAndSet({ ...finished, version: run.version + 1 }, run.version)).toBe(true);
  };
  const chatOf = async (accountId: string, title = 'Plan') => (await createChat(deps, accountId, title)).chatId;
  const issue = (accountId: string, chatId: string, messages?: { role: string; content: string }[]) =>
    issueObserverBinding(deps, accountId, {
      chat_session_id: chatId,
      ...(messages === undefined ? {} : { context: { messages } }),
    });
  const claim = (p: Principal, handle: string, runId: string) =>
    claimChatBinding(deps, p, { claim_handle: handle, run_id: runId });

  beforeAll(async () => {
    t = await flavour.create();
    await insertActiveAccounts(t.store, ['acct_alice', 'acct_bob'], clock);
    deps = roomTestDeps(t.store, SECRET, roomFeatureUnlessLocked(locked), () => clock);
  });
  afterAll(async () => t.dispose());

  it('PRE-03, D-05: a chat is created, listed, opened, renamed and deleted by its account; another account reads not found', async () => {
    const chatId = await chatOf('acct_alice', '  Launch  ');
    expect(chatId).toMatch(/^chat_[0-9a-f]{24}$/);
    await postMessage(deps, 'acct_alice', chatId, `Deploy with ${API_KEY} today`);
    await renameChat(deps, 'acct_alice', chatId, 'Launch day');
    expect((await listChats(deps, 'acct_alice')).map((c) => c.title)).toContain('Launch day');
    expect(await listChats(deps, 'acct_bob')).toEqual([]);
    const opened = await openChat(deps, 'acct_alice', chatId);
    // OBS-10's rule applied to typed messages too: a credential-shaped value never reaches the store.
    expect(opened.messages.map((m) => [m.role, m.content])).toEqual([['user', 'Deploy with [redacted] today']]);
    const notFound = { code: 'not_found', status: 404 };
    expect(await refusal(openChat(deps, 'acct_bob', chatId))).toMatchObject(notFound);
    expect(await refusal(renameChat(deps, 'acct_bob', chatId, 'Mine'))).toMatchObject(notFound);
    expect(await refusal(postMessage(deps, 'acct_bob', chatId, 'hi'))).toMatchObject(notFound);
    expect(await refusal(deleteChat(deps, 'acct_bob', chatId))).toMatchObject(notFound);
    expect(await refusal(openChat(deps, 'acct_alice', 'chat_nope'))).toMatchObject(notFound);
    for (const title of ['', 'x'.repeat(201), 'a\nb', `key ${API_KEY}`])
      expect(await refusal(createChat(deps, 'acct_alice', title))).toMatchObject({ code: 'invalid_request' });
    await deleteChat(deps, 'acct_alice', chatId);
    expect(await refusal(openChat(deps, 'acct_alice', chatId))).toMatchObject(notFound);
    expect(await t.store.read.chats.listMessages(chatId, 10)).toEqual([]);
  });

  it('OBS-01..OBS-03, OBS-10: the browser gets a show-once handle (only its hash stored) and a redacted snapshot', async () => {
    const chatId = await chatOf('acct_alice');
    const issued = await issue('acct_alice', chatId, [
      { role: 'user', content: `my key is ${API_KEY}` },
      { role: 'assistant', content: 'noted' },
    ]);
    expect(issued).toMatchObject({
      schema: 'helix.agent_run_observer.binding.v1',
      binding_status: 'pending_claim',
      chat_session_id: chatId,
      claim_handle_shown_once: true,
      snapshot_message_count: 2,
      ...FLAGS,
    });
    expect(issued.binding_ref).toMatch(/^aob_[0-9a-f]{32}$/);
    expect(issued.claim_handle).toMatch(/^hlxclm_[A-Za-z0-9_-]{43}$/);
    expect(issued.snapshot_ref).toMatch(/^csn_[0-9a-f]{32}$/);
    expect(issued.expires_at).toBe(new Date(clock + 600_000).toISOString());
    const stored = (await t.store.read.chats.getObserverBinding(issued.binding_ref, 'acct_alice'))!;
    expect(stored.claimHash).toBe(sha256Hex(issued.claim_handle));
    expect(JSON.stringify(stored)).not.toContain(issued.claim_handle);
    expect(JSON.stringify(stored)).not.toContain(API_KEY);
    expect(stored.snapshot[0]).toEqual({ role: 'user', content: 'my key is [redacted]' });
    // The view never shows the handle again.
    expect(JSON.stringify(await inspectObserverBinding(deps, 'acct_alice', issued.binding_ref))).not.toContain(
      issued.claim_handle,
    );
  });

  it('OBS-02: a snapshot over any bound (13 messages, 2,001 characters, 12,001 in all) or with unknown fields is refused', async () => {
    const chatId = await chatOf('acct_alice');
    const message = (content: string) => ({ role: 'user', content });
    const bad = [
      Array.from({ length: 13 }, () => message('hi')),
      [message('x'.repeat(2_001))],
      [...Array.from({ length: 6 }, () => message('x'.repeat(2_000))), message('y')],
      [{ role: 'system', content: 'obey' }],
      [{ ...message('hi'), author: 'acct_bob' }],
    ];
    for (const messages of bad)
      expect(await refusal(issue('acct_alice', chatId, messages))).toMatchObject({ code: 'invalid_request' });
    // Exactly at the bounds is fine: 6 × 2,000 = 12,000 characters.
    const atBounds = await issue(
      'acct_alice',
      chatId,
      Array.from({ length: 6 }, () => message('x'.repeat(2_000))),
    );
    expect([atBounds.snapshot_message_count, atBounds.snapshot_char_count]).toEqual([6, 12_000]);
  });

  it('OBS-07, OBS-08: another account’s chat is not found; a caller-chosen account field is refused', async () => {
    const chatId = await chatOf('acct_alice');
    expect(await refusal(issue('acct_bob', chatId))).toMatchObject({ code: 'not_found' });
    expect(
      await refusal(issueObserverBinding(deps, 'acct_alice', { chat_session_id: chatId, account_id: 'acct_bob' })),
    ).toMatchObject({ code: 'invalid_request' });
  });

  it('OBS-04..OBS-06, RREST-06: the agent claims once for its own run; the receipt names only the binding ref, snapshot ref and counts', async () => {
    const chatId = await chatOf('acct_alice');
    const issued = await issue('acct_alice', chatId, [{ role: 'user', content: 'What is WAL?' }]);
    const run = await ownedRun(alice);
    const claimed = await claim(alice, issued.claim_handle, run);
    expect(claimed.status).toBe(201);
    expect(Object.keys(claimed.body).sort()).toEqual(
      [
        'schema',
        'binding_ref',
        'binding_status',
        'snapshot_ref',
        'snapshot_message_count',
        'snapshot_char_count',
        'created_at',
        ...Object.keys(FLAGS),
      ].sort(),
    );
    expect(claimed.body).toMatchObject({
      schema: 'helix.shared_live_room.chat_binding_claim_receipt.v1',
      binding_status: 'active',
      snapshot_ref: issued.snapshot_ref,
      snapshot_message_count: 1,
      snapshot_char_count: 12,
      ...FLAGS,
    });
    expect(claimed.body.binding_ref).toMatch(/^rcb_[0-9a-f]{32}$/);
    expect(JSON.stringify(claimed.body)).not.toContain(chatId);
    expect(await t.store.read.rooms.getChatBinding(claimed.body.binding_ref)).toMatchObject({
      runId: run,
      chatSessionId: chatId,
      status: 'active',
    });
    expect((await inspectObserverBinding(deps, 'acct_alice', issued.binding_ref)).binding_status).toBe('active');
    // OBS-05: used twice is not found, and so is the handle for another run.
    expect(await refusal(claim(alice, issued.claim_handle, await ownedRun(alice)))).toMatchObject({
      code: 'chat_claim_not_found',
      status: 404,
    });
  });

  it('OBS-05: an expired handle, another account’s handle and another account’s run are refused; the handle survives the last two', async () => {
    const chatId = await chatOf('acct_alice');
    const expired = await issue('acct_alice', chatId);
    clock += 600_000;
    expect((await inspectObserverBinding(deps, 'acct_alice', expired.binding_ref)).binding_status).toBe('expired');
    expect(await refusal(claim(alice, expired.claim_handle, await ownedRun(alice)))).toMatchObject({
      code: 'chat_claim_not_found',
    });
    const fresh = await issue('acct_alice', chatId);
    // Bob's agent with alice's handle, for bob's own run: not the same linked account.
    expect(await refusal(claim(bob, fresh.claim_handle, await ownedRun(bob)))).toMatchObject({
      code: 'chat_claim_not_found',
    });
    // Alice's handle for bob's run: the run is not alice's.
    expect(await refusal(claim(alice, fresh.claim_handle, await ownedRun(bob)))).toMatchObject({ code: 'not_found' });
    expect((await claim(alice, fresh.claim_handle, await ownedRun(alice))).status).toBe(201);
  });

  it('WD-09: a run already bound to a chat cannot be claimed for a second chat; the second handle stays usable', async () => {
    const run = await ownedRun(alice);
    const first = await issue('acct_alice', await chatOf('acct_alice'));
    await claim(alice, first.claim_handle, run);
    const second = await issue('acct_alice', await chatOf('acct_alice'));
    expect(await refusal(claim(alice, second.claim_handle, run))).toMatchObject({
      code: 'chat_binding_conflict',
      status: 409,
    });
    expect((await claim(alice, second.claim_handle, await ownedRun(alice))).status).toBe(201);
  });

  it('OBS-11, OBS-13, OBS-14, OBS-16: progress pages stay in the lane; only the authorized terminal product becomes one assistant message', async () => {
    const chatId = await chatOf('acct_alice');
    const issued = await issue('acct_alice', chatId);
    const pending = await listObserverEvents(deps, 'acct_alice', issued.binding_ref, {});
    expect([pending.binding_status, pending.events, pending.terminal_message]).toEqual(['pending_claim', [], null]);
    const run = await ownedRun(alice);
    const { body } = await claim(alice, issued.claim_handle, run);
    await t.store.read.events.append(
      run,
      1,
      1,
      [
        { kind: 'run.turn_started', data: { note: `token ${API_KEY}`, [API_KEY]: 1 } },
        { kind: 'run.turn_finished', data: {} },
      ] as never,
      clock,
    );
    // An unauthorized terminal candidate is never appended.
    await finishRun(run, false);
    const page = await listObserverEvents(deps, 'acct_alice', issued.binding_ref, { after_seq: '0', limit: '1' });
    expect(page).toMatchObject({ binding_status: 'active', has_more: true, terminal_message: null, ...FLAGS });
    expect(page.events.map((e) => e.kind)).toEqual(['run.turn_started']);
    // SLR-09: values and keys are redacted in the lane.
    expect(JSON.stringify(page)).not.toContain(API_KEY);
    expect((await openChat(deps, 'acct_alice', chatId)).messages).toEqual([]);

    await finishRun(run, true);
    const pages = await Promise.all(
      Array.from({ length: 5 }, () => listObserverEvents(deps, 'acct_alice', issued.binding_ref, {})),
    );
    const messageId = `msg_t_${body.binding_ref.slice(4)}`;
    expect(pages.filter((p) => p.terminal_message?.appended).length).toBe(1);
    expect(new Set(pages.map((p) => p.terminal_message?.message_id))).toEqual(new Set([messageId]));
    const opened = await openChat(deps, 'acct_alice', chatId);
    expect(opened.messages.map((m) => [m.messageId, m.role, m.content])).toEqual([[messageId, 'assistant', ANSWER]]);

    // OBS-16: a reload repairs a truncated copy of the canonical text, and only that.
    await t.store.read.chats.replaceMessageContent(messageId, ANSWER.slice(0, 10));
    expect((await openChat(deps, 'acct_alice', chatId)).messages.map((m) => m.content)).toEqual([ANSWER]);
    await t.store.read.chats.replaceMessageContent(messageId, 'edited elsewhere');
    expect((await openChat(deps, 'acct_alice', chatId)).messages.map((m) => m.content)).toEqual(['edited elsewhere']);
  });

  it('OBS-11: a limit over 100 or an unknown query field is refused; another account’s binding is not found', async () => {
    const issued = await issue('acct_alice', await chatOf('acct_alice'));
    for (const query of [{ limit: '101' }, { limit: '0' }, { after_seq: '-1' }, { run_id: 'run_x' }])
      expect(await refusal(listObserverEvents(deps, 'acct_alice', issued.binding_ref, query))).toMatchObject({
        code: 'invalid_request',
      });
    expect(await refusal(listObserverEvents(deps, 'acct_bob', issued.binding_ref, {}))).toMatchObject({
      code: 'not_found',
    });
    expect(await refusal(disconnectObserver(deps, 'acct_bob', issued.binding_ref))).toMatchObject({
      code: 'not_found',
    });
  });

  it('WD-06, SLR-11: after the lock only disconnect works; it closes the run-chat binding, a later poll is closed, a fresh claim binds a new ref (WD-08)', async () => {
    const chatId = await chatOf('acct_alice');
    const issued = await issue('acct_alice', chatId);
    const run = await ownedRun(alice);
    const { body } = await claim(alice, issued.claim_handle, run);
    locked.add('acct_alice');
    try {
      const lockedOut = { code: 'feature_not_enabled', status: 403, feature: 'shared_live_room' };
      expect(await refusal(issue('acct_alice', chatId))).toEqual(lockedOut);
      expect(await refusal(inspectObserverBinding(deps, 'acct_alice', issued.binding_ref))).toEqual(lockedOut);
      expect(await refusal(listObserverEvents(deps, 'acct_alice', issued.binding_ref, {}))).toEqual(lockedOut);
      // Terminal projection is blocked too: opening the chat appends nothing.
      await finishRun(run, true);
      expect((await openChat(deps, 'acct_alice', chatId)).messages).toEqual([]);
      expect(await disconnectObserver(deps, 'acct_alice', issued.binding_ref)).toEqual({
        schema: 'helix.agent_run_observer.disconnect_receipt.v1',
        binding_ref: issued.binding_ref,
        binding_status: 'revoked',
        revocation_status: 'revoked',
        ...FLAGS,
      });
      expect((await disconnectObserver(deps, 'acct_alice', issued.binding_ref)).revocation_status).toBe(
        'already_revoked',
      );
    } finally {
      locked.delete('acct_alice');
    }
    expect((await t.store.read.rooms.getChatBinding(body.binding_ref))?.status).toBe('revoked');
    expect(await refusal(listObserverEvents(deps, 'acct_alice', issued.binding_ref, {}))).toMatchObject({
      code: 'observer_binding_closed',
      status: 409,
    });
    expect((await openChat(deps, 'acct_alice', chatId)).messages).toEqual([]);
    const again = await issue('acct_alice', chatId);
    const rebound = await claim(alice, again.claim_handle, await ownedRun(alice));
    expect(rebound.body.binding_ref).not.toBe(body.binding_ref);
    expect(again.binding_ref).not.toBe(issued.binding_ref);
  });

  it('WD-05, RREST-07: the agent’s withdrawal works after the lock; the browser lane then reads revoked and nothing is appended', async () => {
    const chatId = await chatOf('acct_alice');
    const issued = await issue('acct_alice', chatId);
    const run = await ownedRun(alice);
    const { body } = await claim(alice, issued.claim_handle, run);
    // OBS-16: one observer per chat: while it is bound, a second claim for the chat is refused.
    expect(await refusal(issue('acct_alice', chatId))).toMatchObject({ code: 'chat_binding_conflict' });
    locked.add('acct_alice');
    try {
      expect((await unbindChat(deps, alice, body.binding_ref)).body.revocation_status).toBe('revoked');
    } finally {
      locked.delete('acct_alice');
    }
    expect((await inspectObserverBinding(deps, 'acct_alice', issued.binding_ref)).binding_status).toBe('revoked');
    await finishRun(run, true);
    expect(await refusal(listObserverEvents(deps, 'acct_alice', issued.binding_ref, {}))).toMatchObject({
      code: 'observer_binding_closed',
    });
    expect((await openChat(deps, 'acct_alice', chatId)).messages).toEqual([]);
    // WD-08: the browser connects afresh without disconnecting the binding the agent withdrew.
    const fresh = await issue('acct_alice', chatId);
    expect(fresh.binding_status).toBe('pending_claim');
    expect((await t.store.read.chats.getObserverBinding(issued.binding_ref, 'acct_alice'))?.status).toBe('revoked');
  });
});
