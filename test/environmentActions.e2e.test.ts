// Issue 16 items 2-5: subjects, typed player actions, workflows and Emergency Stop over real HTTP
// with the official MCP SDK client and a SCRIPTED connector (test/support/fakeConnector.ts) on the
// action lane, on SQLite and PostgreSQL (docs/spec/shared-live-room-requirements.md MC-01..MC-15,
// M-03, M-04, D-10, D-11, APR-08). These are "not live-verified" (§23.3 item 4): no game runs.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionPollResponse } from '../connectors/minecraft/src/actionWire.js';
import { setMemberRole } from '../src/service/rooms/setMemberRole.js';
import { signDirectApproval, testApprovalHost } from './support/approvalKeys.js';
import { codeOf, embodimentWorld as world } from './support/embodimentWorld.js';
import { manualClock, startTestHelix, type TestHelix } from './support/harness.js';
import { EMBODIMENT_ENV } from './support/embodimentServer.js';
import { serverStoreFlavours } from './support/stores.js';

const ISSUER = 'https://approvals.example.test';
const KEY_ID = 'embody-test-key';
const ENV = EMBODIMENT_ENV;
const APPROVALS = testApprovalHost(ISSUER, KEY_ID);
const REGISTRY = APPROVALS.registryJson;

describe.each(serverStoreFlavours())('embodiment over MCP with a scripted connector on $name', (flavour) => {
  const clock = manualClock();
  let h: TestHelix;
  let bare: TestHelix;
  const clients: Client[] = [];
  let w: Awaited<ReturnType<typeof world>>;

  const sign = (action: object, roomId: string, subjectRef: string) =>
    signDirectApproval(APPROVALS, { action, roomId, subjectRef }, clock.now());

  beforeAll(async () => {
    h = await startTestHelix(flavour, {
      env: { ...ENV, HELIX_RUNTIME_APPROVAL_TRUSTED_PUBLIC_KEYS_JSON: REGISTRY },
      clock,
    });
    bare = await startTestHelix(flavour, { env: ENV, clock });
    w = await world(h, clock.now, clients);
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await h?.close();
    await bare?.close();
  });

  it('MC-01, MC-02, MC-08: the subject directory is opaque; selection binds the caller', async () => {
    const listed = await w.call('helix_environment_subject_list', { room_id: w.source.roomId });
    expect(listed.structuredContent).toMatchObject({
      operation: 'environment.subject.list',
      subjects: [
        { environment_binding_id: w.source.id, label: 'Survival player', held_by_you: false, available: true },
      ],
      your_binding: null,
    });
    expect(JSON.stringify(listed.structuredContent)).not.toContain('helix_scout');
    const selected = await w.select();
    expect(selected.structuredContent).toMatchObject({ operation: 'environment.subject.select' });
    const again = await w.call('helix_environment_subject_list', { room_id: w.source.roomId });
    expect(again.structuredContent.your_binding.subject_ref).toBe(selected.structuredContent.subject_ref);
    const invented = await w.call('helix_environment_subject_select', {
      room_id: w.source.roomId,
      environment_binding_id: w.source.id,
      subject_ref: 'esr_00000000000000000000000000000000',
    });
    expect(codeOf(invented)).toBe('not_found');
  });

  it('MC-03, MC-04, MC-12, MC-13, M-04 (not live-verified): navigate_to → pending → result → completed; a retry replays', async () => {
    await w.select();
    const target = { x: 10.5, y: -60, z: 4.5 };
    const started = await w.act({ kind: 'navigate_to', target, range: 2 });
    expect(started.structuredContent).toMatchObject({
      operation: 'minecraft.player.action',
      status: 'running',
      kind: 'navigate_to',
      answer_authority: false,
      terminal_eligible: false,
    });
    const ref = started.structuredContent.workflow_ref;
    const polled = await w.connector.poll();
    // §23.3: what Helix hands out is exactly what the connector's own schema parses.
    expect(actionPollResponse.parse(polled)).toEqual(polled);
    expect(polled.actions).toHaveLength(1);
    expect(polled.actions[0]).toMatchObject({ workflow_ref: ref, action: { kind: 'navigate_to', target, range: 2 } });
    const post = { kind: 'position', position: { x: 10, y: -60, z: 5 }, distance_to_target: 0.7 };
    const reported = await w.connector.result(polled.actions[0].action_id, ref, 'completed', post);
    expect(reported.status, reported.text).toBe(200);
    const done = await w.status(ref);
    expect(done.structuredContent).toMatchObject({
      operation: 'minecraft.player.workflow.status',
      status: 'completed',
      actions: [{ status: 'completed', verified: true, postcondition: post }],
      answer_authority: false,
      terminal_eligible: false,
    });
    expect((await w.connector.poll()).actions).toEqual([]);
    const retry = await w.call('helix_minecraft_player_action', {
      room_id: w.source.roomId,
      idempotency_key: 'replayed-key-1',
      action: { kind: 'jump' },
    });
    const replay = await w.call('helix_minecraft_player_action', {
      room_id: w.source.roomId,
      idempotency_key: 'replayed-key-1',
      action: { kind: 'jump' },
    });
    expect(replay.structuredContent.workflow_ref).toBe(retry.structuredContent.workflow_ref);
    const [jump] = (await w.connector.poll()).actions;
    const here = { kind: 'position', position: { x: 10, y: -59, z: 5 }, distance_to_target: null };
    expect((await w.connector.result(jump.action_id, jump.workflow_ref, 'completed', here)).status).toBe(200);
  });

  it('MC-12: a multi-step workflow hands out each step only after the one before it completed', async () => {
    await w.select();
    const steps = [
      { kind: 'hotbar_select', slot: 2 },
      { kind: 'navigate_to', target: { x: 3.5, y: -60, z: 3.5 }, range: 1 },
      { kind: 'jump' },
    ];
    const started = await w.call('helix_minecraft_player_action', {
      room_id: w.source.roomId,
      idempotency_key: 'steps-key-1',
      actions: steps,
    });
    expect(started.structuredContent).toMatchObject({ status: 'running', steps: 3, kind: 'hotbar_select' });
    const ref = started.structuredContent.workflow_ref;
    // One open workflow per player: a second one is refused until this one ends.
    expect(codeOf(await w.act({ kind: 'jump' }))).toBe('environment_subject_busy');
    const reports = [
      { kind: 'hotbar', slot: 2 },
      { kind: 'position', position: { x: 3.4, y: -60, z: 3.6 }, distance_to_target: 0.2 },
      { kind: 'position', position: { x: 3.4, y: -59, z: 3.6 }, distance_to_target: null },
    ];
    for (const [i, post] of reports.entries()) {
      const polled = (await w.connector.poll()).actions;
      expect(polled.map((a) => a.action.kind)).toEqual([steps[i]?.kind]);
      expect((await w.connector.result(polled[0].action_id, ref, 'completed', post)).status).toBe(200);
      const expected = i === reports.length - 1 ? 'completed' : 'running';
      expect((await w.status(ref)).structuredContent.status).toBe(expected);
    }
    expect((await w.status(ref)).structuredContent.actions.map((a: any) => [a.step, a.status])).toEqual([
      [0, 'completed'],
      [1, 'completed'],
      [2, 'completed'],
    ]);
  });

  it('MC-05: resume re-queues a blocked step with a fresh deadline; the later steps still wait their turn', async () => {
    await w.select();
    const started = await w.call('helix_minecraft_player_action', {
      room_id: w.source.roomId,
      idempotency_key: 'steps-key-resume',
      actions: [{ kind: 'hotbar_select', slot: 3 }, { kind: 'jump' }],
    });
    const ref = started.structuredContent.workflow_ref;
    const [first] = (await w.connector.poll()).actions;
    expect((await w.connector.result(first.action_id, ref, 'blocked', null, 'out_of_reach' as any)).status).toBe(200);
    expect((await w.status(ref)).structuredContent.status).toBe('blocked');
    clock.advance(5 * 60_000);
    await w.connector.beat();
    const resumed = await w.call('helix_minecraft_workflow_control', {
      room_id: w.source.roomId,
      workflow_ref: ref,
      control: 'resume',
    });
    expect(resumed.structuredContent).toMatchObject({ status: 'running' });
    const [again] = (await w.connector.poll()).actions;
    expect(again.action_id).toBe(first.action_id);
    expect(Date.parse(again.deadline_at)).toBeGreaterThan(clock.now());
    expect((await w.connector.result(again.action_id, ref, 'completed', { kind: 'hotbar', slot: 3 })).status).toBe(200);
    const [jump] = (await w.connector.poll()).actions;
    expect(jump.action).toEqual({ kind: 'jump' });
    const up = { kind: 'position', position: { x: 0, y: -59, z: 0 }, distance_to_target: null };
    expect((await w.connector.result(jump.action_id, ref, 'completed', up)).status).toBe(200);
    expect((await w.status(ref)).structuredContent.status).toBe('completed');
  });

  it('MC-12: a failed step fails its workflow and ends the steps still waiting; action and actions are exclusive', async () => {
    await w.select();
    const started = await w.call('helix_minecraft_player_action', {
      room_id: w.source.roomId,
      idempotency_key: 'steps-key-2',
      actions: [{ kind: 'hotbar_select', slot: 1 }, { kind: 'jump' }],
    });
    const ref = started.structuredContent.workflow_ref;
    const [first] = (await w.connector.poll()).actions;
    expect((await w.connector.result(first.action_id, ref, 'failed', null, 'deadline' as any)).status).toBe(200);
    expect((await w.status(ref)).structuredContent).toMatchObject({
      status: 'failed',
      actions: [
        { step: 0, status: 'failed' },
        { step: 1, status: 'failed', reason: 'earlier_step_failed' },
      ],
    });
    expect((await w.connector.poll()).actions).toEqual([]);
    for (const bad of [
      { action: { kind: 'jump' }, actions: [{ kind: 'jump' }] },
      {},
      { actions: [] },
      { actions: Array.from({ length: 9 }, () => ({ kind: 'jump' })) },
    ])
      expect(
        codeOf(
          await w.call('helix_minecraft_player_action', {
            room_id: w.source.roomId,
            idempotency_key: 'steps-key-bad',
            ...bad,
          }),
        ),
        JSON.stringify(bad).slice(0, 60),
      ).toBe('invalid_request');
  });

  it('MC-12: a completed report whose postcondition does not verify is recorded failed postcondition_unverified', async () => {
    await w.select();
    const started = await w.act({ kind: 'navigate_to', target: { x: 50, y: -60, z: 50 }, range: 1 });
    const ref = started.structuredContent.workflow_ref;
    const [pending] = (await w.connector.poll()).actions.filter((a) => a.workflow_ref === ref);
    const far = { kind: 'position', position: { x: 0, y: -60, z: 0 }, distance_to_target: 0.5 };
    expect((await w.connector.result(pending.action_id, ref, 'completed', far)).status).toBe(200);
    expect((await w.status(ref)).structuredContent).toMatchObject({
      status: 'failed',
      reason: 'postcondition_unverified',
      actions: [{ status: 'failed', verified: false }],
    });
  });

  it('D-11, APR-08: mine needs a receipt: missing → receipt_invalid; one signed by the approval host is consumed once; room B refuses room A’s', async () => {
    await w.select();
    const mine = { kind: 'mine', target: { x: 1, y: -61, z: 1 } };
    expect(codeOf(await w.act(mine))).toBe('runtime_approval_receipt_invalid');
    const subject = await w.subjectRef();
    const receipt = await sign(mine, w.source.roomId, subject);
    const accepted = await w.act(mine, { approval_receipt: receipt });
    expect(accepted.structuredContent).toMatchObject({ status: 'running', approval_consumed: true });
    // The pending mine verifies only when the block there is air.
    const [pending] = (await w.connector.poll()).actions.filter((a) => a.action.kind === 'mine');
    const post = { kind: 'block', target: mine.target, block: 'air' };
    expect((await w.connector.result(pending.action_id, pending.workflow_ref, 'completed', post)).status).toBe(200);
    expect((await w.status(pending.workflow_ref)).structuredContent.status).toBe('completed');
    expect(codeOf(await w.act(mine, { approval_receipt: receipt }))).toBe('runtime_approval_receipt_replayed');
    const other = await world(h, clock.now, clients);
    await other.select();
    const forA = await sign(mine, w.source.roomId, await other.subjectRef());
    expect(codeOf(await other.act(mine, { approval_receipt: forA }))).toBe('runtime_approval_receipt_invalid');
  });

  it('D-11: a receipt for one step does not approve a workflow; one signed for the exact `actions` does', async () => {
    await w.select();
    const place = { kind: 'place', target: { x: 1, y: -61, z: 1 }, item: 'dirt' };
    const steps = [{ kind: 'hotbar_select', slot: 0 }, place];
    const subject = await w.subjectRef();
    const forStep = await sign(place, w.source.roomId, subject);
    const plan = (receipt: string, key: string) =>
      w.call('helix_minecraft_player_action', {
        room_id: w.source.roomId,
        idempotency_key: key,
        actions: steps,
        approval_receipt: receipt,
      });
    expect(codeOf(await plan(forStep, 'plan-key-1'))).toBe('runtime_approval_receipt_invalid');
    const accepted = await plan(await sign(steps, w.source.roomId, subject), 'plan-key-2');
    expect(accepted.structuredContent).toMatchObject({ status: 'running', steps: 2, approval_consumed: true });
    const ref = accepted.structuredContent.workflow_ref;
    const [first] = (await w.connector.poll()).actions;
    expect((await w.connector.result(first.action_id, ref, 'completed', { kind: 'hotbar', slot: 0 })).status).toBe(200);
    const [second] = (await w.connector.poll()).actions;
    expect(second.action).toEqual(place);
    const placed = { kind: 'block', target: place.target, block: 'dirt' };
    expect((await w.connector.result(second.action_id, ref, 'completed', placed)).status).toBe(200);
    expect((await w.status(ref)).structuredContent.status).toBe('completed');
  });

  it('APR-08: with no approval registry, a world-mutating action is runtime_approval_host_unconfigured', async () => {
    const b = await world(bare, clock.now, clients);
    await b.select();
    expect(codeOf(await b.act({ kind: 'place', target: { x: 0, y: -60, z: 0 }, item: 'dirt' }))).toBe(
      'runtime_approval_host_unconfigured',
    );
  });

  it('MC-09: one member per subject: another member conflicts; of two racing, exactly one wins', async () => {
    const fresh = await world(h, clock.now, clients);
    const bob = await fresh.member('bob');
    const carol = await fresh.member('carol');
    const raced = await Promise.all([fresh.select(bob.call), fresh.select(carol.call)]);
    const codes = raced.map((r) => (r.isError ? codeOf(r) : 'ok')).sort();
    expect(codes).toEqual(['environment_subject_conflict', 'ok']);
    expect(codeOf(await fresh.select())).toBe('environment_subject_conflict');
    // The loser has no subject, so it cannot act.
    const loser = raced[0]?.isError ? bob : carol;
    expect(codeOf(await fresh.act({ kind: 'jump' }, {}, loser.call))).toBe('environment_subject_required');
  });

  it('MC-12: a member demoted to observer can no longer act; their workflow is stopped and the player freed', async () => {
    const fresh = await world(h, clock.now, clients);
    const dave = await fresh.member('dave');
    expect((await fresh.select(dave.call)).isError).toBeFalsy();
    const ref = (await fresh.act({ kind: 'walk', direction: 'forward', ticks: 100 }, {}, dave.call)).structuredContent
      .workflow_ref;
    await fresh.connector.poll();
    await setMemberRole(fresh.owner.rooms, fresh.owner.accountId, fresh.source.roomId, dave.id, 'observer');
    expect(codeOf(await fresh.act({ kind: 'jump' }, {}, dave.call))).toBe('room_role_forbidden');
    // The demotion stopped dave's walk and freed the player for another member at once.
    const [control] = (await fresh.connector.poll()).controls;
    expect(control).toMatchObject({ workflow_ref: ref, control: 'emergency_stop' });
    expect((await fresh.connector.controlResult(control, 'stopped', 0)).status).toBe(200);
    const erin = await fresh.member('erin');
    expect((await fresh.select(erin.call)).isError).toBeFalsy();
  });

  it('M-03, MC-05: E-stop is stopping until the connector reports stopped and stationary; failed or drifting stops do not count', async () => {
    await w.select();
    const ref = (await w.act({ kind: 'walk', direction: 'forward', ticks: 100 })).structuredContent.workflow_ref;
    await w.connector.poll();
    const stop = await w.call('helix_minecraft_workflow_control', {
      room_id: w.source.roomId,
      workflow_ref: ref,
      control: 'emergency_stop',
    });
    expect(stop.structuredContent).toMatchObject({
      operation: 'minecraft.player.workflow.control',
      status: 'stopping',
    });
    const [control] = (await w.connector.poll()).controls;
    expect(control).toMatchObject({ workflow_ref: ref, control: 'emergency_stop' });
    expect((await w.connector.controlResult(control, 'failed', 0)).status).toBe(200);
    expect((await w.status(ref)).structuredContent.status).toBe('stopping');
    const again = await w.call('helix_minecraft_workflow_control', {
      room_id: w.source.roomId,
      workflow_ref: ref,
      control: 'emergency_stop',
    });
    const [second] = (await w.connector.poll()).controls.filter(
      (c) => c.control_id === again.structuredContent.control_id,
    );
    expect((await w.connector.controlResult(second, 'stopped', 3.48)).status).toBe(200);
    expect((await w.status(ref)).structuredContent.status).toBe('stopping');
    const third = await w.call('helix_minecraft_workflow_control', {
      room_id: w.source.roomId,
      workflow_ref: ref,
      control: 'emergency_stop',
    });
    const [last] = (await w.connector.poll()).controls.filter(
      (c) => c.control_id === third.structuredContent.control_id,
    );
    expect((await w.connector.controlResult(last, 'stopped', 0.01)).status).toBe(200);
    expect((await w.status(ref)).structuredContent).toMatchObject({
      status: 'stopped',
      actions: [{ status: 'stopped' }],
    });
  });

  it('MC-12, M-03: a connector that vanishes mid-workflow leaves it failed connector_lost', async () => {
    const fresh = await world(h, clock.now, clients);
    await fresh.select();
    const ref = (await fresh.act({ kind: 'jump' })).structuredContent.workflow_ref;
    clock.advance(31_000);
    expect((await fresh.status(ref)).structuredContent).toMatchObject({ status: 'failed', reason: 'connector_lost' });
    await w.connector.beat();
  });

  it('D-10, MC-11, MC-15: unverifiable and unknown kinds are not supported; command text fits no field', async () => {
    await w.select();
    for (const kind of ['craft', 'collect', 'track_target', 'inventory_transfer', 'chat', 'command'])
      expect(codeOf(await w.act({ kind, text: '/op helix_scout' })), kind).toBe('environment_action_not_supported');
    for (const action of [
      { kind: 'equip', item: '/give helix_scout diamond', destination: 'hand' },
      { kind: 'follow', player: '/op x', duration_ms: 1000 },
      { kind: 'jump', command: '/op helix_scout' },
    ])
      expect(codeOf(await w.act(action)), JSON.stringify(action)).toBe('invalid_request');
  });
});
