import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProbeRecord } from '../src/domain/roomObservations.js';
import { emptyOutcome, type TurnOutcome } from '../src/domain/turn.js';
import { changeAccountPolicy } from '../src/service/accounts/changeAccountPolicy.js';
import { createAccount } from '../src/service/accounts/createAccount.js';
import { acceptConsent } from '../src/service/rooms/acceptConsent.js';
import { acceptInvite } from '../src/service/rooms/acceptInvite.js';
import { createInvite } from '../src/service/rooms/createInvite.js';
import type { RoomDeps } from '../src/service/rooms/deps.js';
import { removeMember } from '../src/service/rooms/removeMember.js';
import { setMemberRole } from '../src/service/rooms/setMemberRole.js';
import { revokeSource } from '../src/service/roomSources/revokeSource.js';
import { rotateSource } from '../src/service/roomSources/rotateSource.js';
import { ChatCompletionsClient } from '../src/model/chat/chatCompletions.js';
import { ExtractiveExecutor } from '../src/solver/extractive/extractiveExecutor.js';
import { ModelExecutor } from '../src/solver/model/modelExecutor.js';
import type { TurnInput } from '../src/solver/executor.js';
import { ScriptedExecutor, scriptedCandidate } from '../src/solver/scriptedExecutor.js';
import { accountDeps } from './support/accounts.js';
import {
  ADMIT_ALL,
  admittedSourceIn,
  type AdmittedRoomSource,
  insertObservation,
  minecraftSnapshot,
  observationOf,
  roomWithAdmittedSource,
} from './support/boundRoom.js';
import { api, idemKey, manualClock, startTestHelix, type TestHelix, waitFor } from './support/harness.js';
import { serverRoomDeps } from './support/roomDeps.js';
import { startScriptedChatServer, submitCall, toolMessages } from './support/scriptedChatServer.js';
import { storeFlavours } from './support/stores.js';

const RUNS = '/api/v1/agent-runs';
const SCOPES =
  'helix.agent_runs.read helix.agent_runs.write helix.rooms.read helix.rooms.manage helix.room_sources.manage';
const MAX_AGE_MS = 30_000;
const ENV = {
  HELIX_AGENT_DATABASE_SCOPES: 'bound_room_evidence,bound_room_environment_probe',
  HELIX_BOUND_ROOM_EVIDENCE_MAX_AGE_MS: String(MAX_AGE_MS),
  HELIX_ROOM_AGENT_IP_RATE_LIMIT: '0',
  HELIX_ROOM_AGENT_PRINCIPAL_RATE_LIMIT: '0',
  HELIX_AGENT_IP_RATE_LIMIT: '0',
  HELIX_AGENT_PRINCIPAL_RATE_LIMIT: '0',
};
const QUESTION = "How many diamonds are in the player's inventory?";
const DIAMONDS = [
  { slot: 36, name: 'diamond', count: 3 },
  { slot: 37, name: 'dirt', count: 4 },
];

// Issue 15 item 5 (docs/spec/shared-live-room-requirements.md §9, §10): bound room evidence over the
// real service, HTTP and store; the test stands in for the ingress lane by writing its rows.
describe.each(storeFlavours())('bound room evidence on $name', (flavour) => {
  let h: TestHelix;
  let rooms: RoomDeps;
  const clock = manualClock();
  let alice = '';
  let bob = '';
  let aliceToken = '';
  let bobToken = '';
  let accounts: Awaited<ReturnType<typeof accountDeps>>;
  /** What the next turn does; by default the offline extractive executor. */
  let step: (input: TurnInput) => Promise<TurnOutcome> = (input) => new ExtractiveExecutor().executeTurn(input);

  beforeAll(async () => {
    const executor = new ScriptedExecutor([], (input) => step(input));
    h = await startTestHelix(flavour, { env: ENV, clock, executor });
    accounts = await accountDeps(h.testStore.store);
    rooms = await serverRoomDeps(h.testStore.store, ADMIT_ALL);
    for (const name of ['alice', 'bob']) {
      const { accountId } = await createAccount(accounts, { displayName: name });
      await changeAccountPolicy(accounts, ADMIT_ALL, accountId, {
        features: { shared_live_room: true, developer: true },
      });
      if (name === 'alice') alice = accountId;
      else bob = accountId;
    }
    aliceToken = await h.key(SCOPES, 'tenant-a', alice);
    bobToken = await h.key(SCOPES, 'tenant-a', bob);
  });
  afterAll(async () => h?.close());

  const start = async (token: string, scope = 'bound_room_evidence', objective = QUESTION, extra = {}) => {
    const res = await api(h.url, 'POST', RUNS, {
      token,
      idempotencyKey: idemKey('run'),
      body: { objective, database_scope: [scope], budget: { max_steps: 6 }, ...extra },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.run_id as string;
  };
  const bind = async (token: string, roomId: string, runId: string) => {
    const res = await api(h.url, 'POST', '/api/v1/rooms/run-bindings', {
      token,
      body: { room_id: roomId, run_id: runId },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.binding_ref as string;
  };
  const version = async (token: string, runId: string) =>
    (await api(h.url, 'GET', `${RUNS}/${runId}`, { token })).body.version as number;
  const turn = async (token: string, runId: string, key = idemKey('turn'), expected?: number) =>
    api(h.url, 'POST', `${RUNS}/${runId}/continue`, {
      token,
      idempotencyKey: key,
      body: { expected_version: expected ?? (await version(token, runId)), instruction: 'Answer from the room.' },
    });
  const evidence = async (token: string, runId: string) =>
    (await api(h.url, 'GET', `${RUNS}/${runId}/evidence`, { token })).body;
  const room = () => roomWithAdmittedSource(h.url, aliceToken, rooms, alice, clock.now());
  const snapshot = (r: AdmittedRoomSource, items = DIAMONDS, age = 1_000) =>
    insertObservation(h.testStore.store, observationOf(r, minecraftSnapshot(items), clock.now() - age));
  /** A run of alice's bound to a room with a fresh snapshot. */
  const boundRun = async (items = DIAMONDS) => {
    const r = await room();
    await snapshot(r, items);
    const runId = await start(aliceToken);
    await bind(aliceToken, r.roomId, runId);
    return { r, runId };
  };

  it('ENV-10, BRE-01..BRE-03, BRE-07, ING-03: an authorized extractive answer citing the exact observation', async () => {
    const { r, runId } = await boundRun();
    const res = await turn(aliceToken, runId);
    expect(res.body, res.text).toMatchObject({
      completion_status: 'completed',
      terminal_authority_status: 'authorized',
    });
    expect(res.body.latest_result.text).toContain('diamond ×3');
    const bundle = await evidence(aliceToken, runId);
    const cited = bundle.artifacts.find((a: any) => a.ref === res.body.latest_result.supporting_evidence_refs[0]);
    expect(cited).toMatchObject({
      evidence_family: 'shared_live_room_evidence',
      capability_id: 'room.evidence.read_bound',
      kind: 'evidence',
      turn: 1,
    });
    const observation = await h.testStore.store.read.roomIngress.latestObservation(r.source.sourceId, 'snapshot');
    expect(cited.provenance.room_observation).toEqual({
      observation_id: observation?.observationId,
      room_id: r.roomId,
      source_id: r.source.sourceId,
      world_id: 'minecraft:overworld',
      profile_id: r.admission.profileId,
      profile_version: r.admission.profileVersion,
      profile_hash: r.admission.profileHash,
      manifest_id: r.admission.manifestId,
      manifest_hash: r.admission.manifestHash,
      request_id: observation?.requestId,
      observed_at: new Date(observation?.observedAt ?? 0).toISOString(),
      received_at: new Date(observation?.receivedAt ?? 0).toISOString(),
      reentry_required: true,
      execution_enabled: false,
    });
    expect(cited.provenance.locator).toBe(
      `helix-room://${r.roomId}/sources/${r.source.sourceId}/observations/${observation?.observationId}#inventory`,
    );
    // Never the producer epoch nor any credential.
    expect(JSON.stringify(bundle)).not.toContain(r.admission.producerEpochHash);
    // An ended run keeps its own refusal once its binding is withdrawn.
    const bindingRef = (await h.testStore.store.read.rooms.getActiveRunBinding(runId))?.bindingRef;
    const withdrawn = await api(h.url, 'DELETE', `/api/v1/rooms/run-bindings/${bindingRef}`, { token: aliceToken });
    expect(withdrawn.status, withdrawn.text).toBe(200);
    expect((await turn(aliceToken, runId)).body.code).toBe('run_not_active');
  });

  it('BRE-07: the model-driven executor reads the observation through its tool menu and its cited answer is authorized', async () => {
    const chat = await startScriptedChatServer();
    try {
      const client = new ChatCompletionsClient({
        baseUrl: chat.url,
        apiKey: 'sk-local-room-model-0001',
        retry: { sleep: async () => undefined },
      });
      const model = new ModelExecutor({
        resolver: { forOwner: async () => ({ client, model: 'scripted-model' }) },
        maxToolCalls: 3,
      });
      step = (input) => model.executeTurn(input);
      chat.push(
        {
          kind: 'tool_calls',
          calls: [
            {
              id: 'call_room',
              name: 'room__evidence__read_bound',
              arguments: JSON.stringify({ query: 'diamond inventory', limit: 3 }),
            },
          ],
        },
        (request) => {
          const results = JSON.parse(toolMessages(request).at(-1)?.content ?? '{}').results as {
            ref: string;
            text: string;
          }[];
          const inventory = results.find((r) => r.text.includes('diamond'));
          return {
            kind: 'tool_calls',
            calls: [submitCall({ text: 'The player holds 3 diamonds [1].', supporting_refs: [inventory?.ref] })],
          };
        },
      );
      const { runId } = await boundRun();
      const res = await turn(aliceToken, runId);
      expect(res.body, res.text).toMatchObject({
        terminal_authority_status: 'authorized',
        latest_result: { writer: 'helix.model' },
      });
      const cited = (await evidence(aliceToken, runId)).artifacts.find(
        (a: any) => a.ref === res.body.latest_result.supporting_evidence_refs[0],
      );
      expect(cited).toMatchObject({
        evidence_family: 'shared_live_room_evidence',
        capability_id: 'room.evidence.read_bound',
      });
      // The model was offered the room capability by its function name, and nothing of the source's secrets.
      const offered = chat.requests.at(-2)?.body.tools.map((t: { function: { name: string } }) => t.function.name);
      expect(offered).toContain('room__evidence__read_bound');
    } finally {
      step = (input) => new ExtractiveExecutor().executeTurn(input);
      await chat.close();
    }
  });

  it('ING-05, BRE-06: an observation older than the ceiling is refused typed before a turn is spent', async () => {
    const r = await room();
    await snapshot(r, DIAMONDS, MAX_AGE_MS + 1);
    const runId = await start(aliceToken);
    await bind(aliceToken, r.roomId, runId);
    const before = await version(aliceToken, runId);
    const res = await turn(aliceToken, runId);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('room_evidence_stale');
    expect(await version(aliceToken, runId)).toBe(before);
    expect((await evidence(aliceToken, runId)).artifacts).toEqual([]);
  });

  it('BRE-03, BRE-06: an unbound run is refused typed, binding missing', async () => {
    const runId = await start(aliceToken);
    const res = await turn(aliceToken, runId);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('room_evidence_binding_missing');
  });

  it('BRE-04, BRE-06: membership removed between two turns: the next turn fails typed and adds no evidence', async () => {
    const r = await room();
    await snapshot(r);
    const { token } = await createInvite(rooms, alice, r.roomId, { role: 'member' });
    const joined = await acceptInvite(rooms, bob, token);
    await acceptConsent(rooms, bob, r.roomId, joined.consent.version);
    // A contract the room cannot meet keeps the run open after an authorized turn.
    const runId = await start(bobToken, 'bound_room_evidence', QUESTION, {
      completion_contract: { required_output_fields: ['unmet'] },
    });
    await bind(bobToken, r.roomId, runId);
    const key = idemKey('first');
    expect((await turn(bobToken, runId, key)).body.terminal_authority_status).toBe('authorized');
    const refs = (await evidence(bobToken, runId)).artifacts.map((a: any) => a.ref);

    // Promotion keeps the binding but changes the role it was made under.
    await setMemberRole(rooms, alice, r.roomId, bob, 'owner');
    const changed = await turn(bobToken, runId);
    expect(changed.status).toBe(403);
    expect(changed.body.code).toBe('room_evidence_membership_changed');
    // Removal revokes the binding itself.
    await removeMember(rooms, alice, r.roomId, bob);
    const removed = await turn(bobToken, runId);
    expect(removed.status).toBe(409);
    expect(removed.body.code).toBe('room_evidence_binding_missing');
    expect((await evidence(bobToken, runId)).artifacts.map((a: any) => a.ref)).toEqual(refs);
    // A retry of the turn that succeeded still gets its stored answer.
    const replay = await turn(bobToken, runId, key, 1);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
  });

  it('BRE-05, BRE-06: a recheck that fails inside the turn fails the turn with its own code, admitting nothing', async () => {
    const { r, runId } = await boundRun();
    step = async (input) => {
      // The source is revoked after the continue's precheck passed, before the capability reads.
      await revokeSource(rooms, alice, r.source.sourceId);
      return new ExtractiveExecutor().executeTurn(input);
    };
    try {
      const res = await turn(aliceToken, runId);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ completion_status: 'blocked', terminal_authority_status: 'not_evaluated' });
      expect(res.body.latest_result).toMatchObject({
        outcome: 'failed',
        failure_code: 'room_evidence_source_unavailable',
        text: null,
      });
      expect((await evidence(aliceToken, runId)).artifacts).toEqual([]);
      const events = (await api(h.url, 'GET', `${RUNS}/${runId}/events`, { token: aliceToken })).body.events;
      expect(events.at(-1)).toMatchObject({
        kind: 'run.blocked',
        data: { failure_code: 'room_evidence_source_unavailable' },
      });
    } finally {
      step = (input) => new ExtractiveExecutor().executeTurn(input);
    }
  });

  it("BRE-04, ING-02: a run bound to room A never sees room B's observations", async () => {
    const a = await room();
    const b = await room();
    await snapshot(b, [{ slot: 1, name: 'diamond', count: 7 }]);
    const runId = await start(aliceToken);
    await bind(aliceToken, a.roomId, runId);
    expect((await turn(aliceToken, runId)).body.code).toBe('room_evidence_stale');
    // A row under A's source but naming room B is another connection's data.
    await insertObservation(
      h.testStore.store,
      observationOf(a, minecraftSnapshot(DIAMONDS), clock.now(), { overrides: { roomId: b.roomId } }),
    );
    expect((await turn(aliceToken, runId)).body.code).toBe('room_evidence_identity_mismatch');
    // A row whose producer epoch is not the admission's.
    await insertObservation(
      h.testStore.store,
      observationOf(a, minecraftSnapshot(DIAMONDS), clock.now() + 1, {
        overrides: { producerEpochHash: '0'.repeat(64) },
      }),
    );
    expect((await turn(aliceToken, runId)).body.code).toBe('room_evidence_identity_mismatch');
  });

  it('SRC-06, ING-02: a rotated or revoked source and an invalidated admission are refused typed', async () => {
    const rotated = await boundRun();
    await rotateSource(rooms, alice, rotated.r.source.sourceId);
    expect((await turn(aliceToken, rotated.runId)).body.code).toBe('room_evidence_source_unavailable');

    const revoked = await boundRun();
    await revokeSource(rooms, alice, revoked.r.source.sourceId);
    expect((await turn(aliceToken, revoked.runId)).body.code).toBe('room_evidence_source_unavailable');

    const invalidated = await boundRun();
    await h.testStore.store.read.roomSources.invalidateAdmissions(invalidated.r.source.sourceId, clock.now());
    const res = await turn(aliceToken, invalidated.runId);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('environment_adapter_admission_required');
  });

  /** Bob joins the room with the role and accepts its consent. */
  const joinAs = async (roomId: string, accountId: string, role: string) => {
    const { token } = await createInvite(rooms, alice, roomId, { role });
    const joined = await acceptInvite(rooms, accountId, token);
    await acceptConsent(rooms, accountId, roomId, joined.consent.version);
  };
  /** A room whose only source is one bob created as an owner, with a fresh snapshot. */
  const roomOfBobsSource = async () => {
    const r = await room();
    await revokeSource(rooms, alice, r.source.sourceId);
    await joinAs(r.roomId, bob, 'owner');
    const bobs = await admittedSourceIn(h.url, bobToken, rooms, bob, r.roomId, clock.now());
    await snapshot(bobs);
    return { r, bobs };
  };
  const setRoomFeature = (accountId: string, on: boolean) =>
    changeAccountPolicy(accounts, ADMIT_ALL, accountId, { features: { shared_live_room: on, developer: true } });

  it("SRC-06: a source whose creator's account policy turns shared_live_room off is no member's authorized evidence", async () => {
    // Alice's source, bob's run: bob's turn must not cite what alice's source saw once alice is locked out.
    const r = await room();
    await snapshot(r);
    await joinAs(r.roomId, bob, 'member');
    const runId = await start(bobToken, 'bound_room_evidence', QUESTION, {
      completion_contract: { required_output_fields: ['unmet'] },
    });
    await bind(bobToken, r.roomId, runId);
    expect((await turn(bobToken, runId)).body.terminal_authority_status).toBe('authorized');
    const before = (await evidence(bobToken, runId)).artifacts.length;
    await setRoomFeature(alice, false);
    try {
      const locked = await turn(bobToken, runId);
      expect(locked.status, locked.text).toBe(409);
      expect(locked.body.code).toBe('room_evidence_source_unavailable');
      expect((await evidence(bobToken, runId)).artifacts).toHaveLength(before);
    } finally {
      await setRoomFeature(alice, true);
    }
  });

  it('SRC-06: removing the owner who created a source revokes it; no other member cites it afterwards', async () => {
    const { r, bobs } = await roomOfBobsSource();
    const runId = await start(aliceToken, 'bound_room_evidence', QUESTION, {
      completion_contract: { required_output_fields: ['unmet'] },
    });
    await bind(aliceToken, r.roomId, runId);
    expect((await turn(aliceToken, runId)).body.terminal_authority_status).toBe('authorized');

    expect(await removeMember(rooms, alice, r.roomId, bob)).toMatchObject({ revoked_sources: 1 });
    const source = await h.testStore.store.read.roomSources.getSource(bobs.source.sourceId);
    expect(source).toMatchObject({ status: 'revoked', credentialHash: null, actionCredentialHash: null });
    expect(await h.testStore.store.read.roomSources.getCurrentAdmission(bobs.source.sourceId)).toBeUndefined();
    const after = await turn(aliceToken, runId);
    expect(after.status, after.text).toBe(409);
    expect(after.body.code).toBe('room_evidence_source_unavailable');
  });

  it('SRC-06: a live source whose creator is no longer an owner (demoted, or removed before revocation existed) counts for nothing', async () => {
    const { r, bobs } = await roomOfBobsSource();
    const runId = await start(aliceToken);
    await bind(aliceToken, r.roomId, runId);
    // The membership row changed without the revocation a removal now does.
    const member = await h.testStore.store.read.rooms.getMember(r.roomId, bob);
    await h.testStore.store.read.rooms.saveMember({ ...member!, role: 'member' });
    expect((await h.testStore.store.read.roomSources.getSource(bobs.source.sourceId))?.status).toBe('active');
    expect((await turn(aliceToken, runId)).body.code).toBe('room_evidence_source_unavailable');
    // A demotion through the use case revokes the source for good.
    await h.testStore.store.read.rooms.saveMember({ ...member!, role: 'owner' });
    expect(await setMemberRole(rooms, alice, r.roomId, bob, 'observer')).toMatchObject({ revoked_sources: 1 });
    expect((await h.testStore.store.read.roomSources.getSource(bobs.source.sourceId))?.status).toBe('revoked');
  });

  it('SLR-08: a credential-shaped value in a payload is redacted in the projection', async () => {
    const secret = `sk-${'A1b2C3d4'.repeat(4)}`;
    const { runId } = await boundRun([{ slot: 36, name: secret, count: 3 }]);
    const res = await turn(aliceToken, runId);
    expect(res.text).not.toContain(secret);
    expect(JSON.stringify(await evidence(aliceToken, runId))).not.toContain(secret);
    // Everything the turn read is recorded for audit, the inventory sentence with the value redacted.
    const recorded = await h.testStore.store.read.artifacts.listRecorded(runId);
    expect(JSON.stringify(recorded)).not.toContain(secret);
    const inventory = recorded.find((a) => a.title === 'Player inventory');
    expect(inventory?.excerpt).toBe('Inventory of player helix_probe: [redacted] ×3 (slot 36).');
  });

  it('PRB-01, PRB-02: the inventory probe asks the bound source once per turn and cites its answer', async () => {
    const store = h.testStore.store;
    const r = await room();
    const runId = await start(aliceToken, 'bound_room_environment_probe', "What is in the player's inventory?");
    await bind(aliceToken, r.roomId, runId);
    const pending = turn(aliceToken, runId);
    // The connector's side, as the ingress routes do it: take the pending probe, answer it.
    let probes: ProbeRecord[] = [];
    await waitFor(async () => {
      probes = await store.read.roomIngress.takeProbes(r.source.sourceId, clock.now(), 5);
      return probes.length > 0;
    });
    const [probe] = probes;
    if (probe === undefined) throw new Error('no probe');
    expect(probe).toMatchObject({ runId, turn: 1, probeType: 'com.casimirbot.minecraft.inventory.check' });
    expect(probe.probeId).toMatch(/^prb_[0-9a-f]{32}$/);
    const payload = { probe_type: probe.probeType, status: 'completed', result: { inventory: { items: DIAMONDS } } };
    const answer = observationOf(r, payload, clock.now(), { kind: 'probe_result', eventId: probe.probeId });
    await insertObservation(store, answer);
    expect(
      await store.read.roomIngress.answerProbe(probe.probeId, 'completed', answer.observationId, clock.now()),
    ).toBe(true);

    const res = await pending;
    expect(res.body, res.text).toMatchObject({
      completion_status: 'completed',
      terminal_authority_status: 'authorized',
    });
    expect(res.body.latest_result.text).toContain('diamond ×3');
    const cited = (await evidence(aliceToken, runId)).artifacts[0];
    expect(cited).toMatchObject({
      evidence_family: 'shared_live_room_environment_probe',
      capability_id: 'com.casimirbot.minecraft.inventory.check',
      provenance: { room_observation: { observation_id: answer.observationId, reentry_required: true } },
    });
    // One probe for the turn, however many queries the executor searched with.
    expect(await store.read.roomIngress.takeProbes(r.source.sourceId, clock.now(), 5)).toEqual([]);
    expect((await store.read.roomIngress.getProbe(probe.probeId))?.status).toBe('completed');
  });

  it('BRE-08: a required room family is a hard gate: a bare assertion or a previous turn does not clear it', async () => {
    const { runId } = await boundRun();
    // Turn 1: the real lane reads evidence; remember the artifact.
    let firstArtifact: TurnOutcome['artifacts'][number] | undefined;
    step = async (input) => {
      const read = await input.capabilities.invoke('room.evidence.read_bound', {
        query: 'diamond inventory',
        limit: 1,
      });
      firstArtifact = read.artifacts[0];
      return emptyOutcome({ artifacts: read.artifacts });
    };
    try {
      await turn(aliceToken, runId);
      const text = 'The player holds diamonds.';
      // Turn 2: asserts the family and resolution without any artifact.
      step = async () =>
        emptyOutcome({
          satisfiedFamilies: ['shared_live_room_evidence'],
          resolvedRequirements: ['required_evidence:shared_live_room_evidence'],
          terminalCandidates: [scriptedCandidate(text, ['artifact:sha256:none'])],
        });
      const bare = await turn(aliceToken, runId);
      expect(bare.body).toMatchObject({
        terminal_authority_status: 'not_authorized',
        completion_status: 'needs_more_evidence',
      });
      expect(bare.body.unresolved_requirements).toContain('required_evidence:shared_live_room_evidence');
      expect(bare.body.latest_result).toMatchObject({ text: null, output_fields: {} });
      // Turn 3: cites the previous turn's artifact, which this turn did not read.
      const previous = firstArtifact;
      if (previous === undefined) throw new Error('turn 1 read nothing');
      step = async () =>
        emptyOutcome({
          satisfiedFamilies: ['shared_live_room_evidence'],
          terminalCandidates: [scriptedCandidate(text, [previous.ref])],
        });
      const stale = await turn(aliceToken, runId);
      expect(stale.body).toMatchObject({ terminal_authority_status: 'not_authorized' });
      expect(stale.body.unresolved_requirements).toContain('required_evidence:shared_live_room_evidence');
      expect(stale.body.latest_result).toMatchObject({ text: null, output_fields: {} });
    } finally {
      step = (input) => new ExtractiveExecutor().executeTurn(input);
    }
  });
});
