import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/service/accounts/createAccount.js';
import { issueSignInLink } from '../src/service/accounts/issueSignInLink.js';
import { linkIdentity } from '../src/service/accounts/linkIdentity.js';
import { dataSubjectKey } from '../src/domain/identityHashes.js';
import { secretHash } from '../src/accounts/secrets.js';
import { startSession } from '../src/accounts/sessions.js';
import { findActiveApiKey, hashApiKey } from '../src/auth/apiKeys.js';
import { API_KEY_ISSUER } from '../src/auth/authenticate.js';
import { loadInstanceSecret } from '../src/auth/instanceSecret.js';
import { ownerHashOf, ownershipOf, type Principal } from '../src/auth/principal.js';
import { DENY_ALL, featuresFrom } from '../src/domain/accountPolicy.js';
import { sha256Hex } from '../src/domain/hashing.js';
import { ScopeSet } from '../src/domain/scopes.js';
import { bindRun } from '../src/service/rooms/bindRun.js';
import { createInvite } from '../src/service/rooms/createInvite.js';
import { createChat } from '../src/service/chats/createChat.js';
import { issueObserverBinding } from '../src/service/chats/issueObserverBinding.js';
import { postMessage } from '../src/service/chats/postMessage.js';
import { createRoom } from '../src/service/rooms/createRoom.js';
import type { RoomDeps } from '../src/service/rooms/deps.js';
import { emptyOutcome, type TurnOutcome } from '../src/domain/turn.js';
import type { TurnInput } from '../src/solver/executor.js';
import { ScriptedExecutor, scriptedArtifact, scriptedCandidate } from '../src/solver/scriptedExecutor.js';
import { PUBLIC_DNS, tableResolver } from './support/fakeDns.js';
import { api, gate, idemKey, startTestHelix, waitFor, type ApiResponse, type TestHelix } from './support/harness.js';
import { accountDeps } from './support/accounts.js';
import { storeFlavours } from './support/stores.js';
import { dumpTables, inspectable, sqliteFileBytes, type TableDump } from './support/tableDump.js';
import { createAdapterRegistry } from '../src/domain/environmentAdapterRegistry.js';
import { createSource } from '../src/service/roomSources/createSource.js';
import { claimDelivery } from '../src/service/roomSources/claimDelivery.js';
import { MINECRAFT_INVENTORY_CHECK_PROBE } from '../src/domain/environmentAdapterProfiles.js';
import { pollProbes } from '../src/service/roomIngress/pollProbes.js';
import { recordHeartbeat } from '../src/service/roomIngress/recordHeartbeat.js';
import { recordProbeResult } from '../src/service/roomIngress/recordProbeResult.js';
import { recordWorldEvents } from '../src/service/roomIngress/recordWorldEvents.js';
import { submitManifest } from '../src/service/roomIngress/submitManifest.js';
import {
  batchBody,
  heartbeatBody,
  manifestBody,
  pollBody,
  probeResultBody,
  snapshot,
} from './support/ingressBodies.js';
import { insertPendingProbe } from './support/ingressSources.js';

const RUNS = '/api/v1/agent-runs';
/** The producer epoch of the seeded ingress traffic: stored only as its hash, never exported. */
const SUBJECT_EPOCH = 'epoch-subject-access-0001';
const PROVIDERS = '/api/v1/model-providers';
const SUBJECTS = '/api/v1/subjects';
const JWT_SECRET = 'a-local-development-secret-of-40-chars!!';
const LIBRARY = { capabilityId: 'research-library.search', family: 'research_library_evidence' };
const OWNER_SCOPES =
  'helix.agent_runs.read helix.agent_runs.write helix.data.research_library.read provider.read provider.write';
const OPERATOR_SCOPES = 'subject.read subject.export subject.erase';

const localToken = (subject: string, claims: Record<string, unknown>) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer('helix-local')
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(JWT_SECRET));

describe.each(inspectable(storeFlavours()))('subject access on $name', (flavour) => {
  const held = gate();
  // Each turn finds two passages naming its own objective, so every run's evidence is its own.
  const groundedTurn = async (input: TurnInput): Promise<TurnOutcome> => {
    if (input.objective.includes('hold')) await held.opened;
    const a = scriptedArtifact(`first passage on ${input.objective}`, LIBRARY);
    const b = scriptedArtifact(`second passage on ${input.objective}`, LIBRARY);
    return emptyOutcome({
      artifacts: [a, b],
      satisfiedFamilies: [LIBRARY.family],
      terminalCandidates: [scriptedCandidate(`answer to ${input.objective}`, [a.ref, b.ref])],
    });
  };
  let h: TestHelix;
  let secret: string;
  let operator: string;
  let operatorKeyId: string;

  /** A subject with a row of every kind: account, policy, link, binding, session, tokens, key, runs (a key's and a token's), evidence, provider. */
  const populate = async (label: string) => {
    const store = h.testStore.store;
    const now = Date.now();
    const deps = await accountDeps(store, () => now);
    const account = await createAccount(deps, { displayName: `Person ${label}`, password: `a password for ${label}` });
    const accountId = account.accountId;
    const tenant = `tenant-${label}`;
    await linkIdentity(deps, accountId, {
      issuer: 'https://login.example.com',
      tenantId: tenant,
      provider: 'idp',
      subject: `idp-${label}`,
    });
    const session = await startSession(store, accountId, now);
    await issueSignInLink(deps, accountId);
    await store.read.accounts.setPolicyOverrides(accountId, '{"features":{"developer":true},"capabilities":{}}', now);
    const key = await h.key(OWNER_SCOPES, tenant, accountId);
    const keyRecord = (await findActiveApiKey(store, key))!;
    const objective = `objective-${label}-${randomBytes(6).toString('hex')}`;
    const started = await api(h.url, 'POST', RUNS, {
      token: key,
      idempotencyKey: idemKey(),
      body: { objective, database_scope: ['research_library'] },
    });
    expect(started.status, started.text).toBe(201);
    const continued = await api(h.url, 'POST', `${RUNS}/${started.body.run_id}/continue`, {
      token: key,
      idempotencyKey: idemKey(),
      body: { expected_version: 1, instruction: 'find it' },
    });
    expect(continued.body.lifecycle_status, continued.text).toBe('completed');
    // A local JWT owner cannot be derived from any key row: only the owner registry attributes its run.
    const jwtSubject = `jwt-${label}`;
    const token = await localToken(jwtSubject, {
      tenant_id: tenant,
      account_id: accountId,
      scope: 'helix.agent_runs.write helix.agent_runs.read',
    });
    const jwtRun = await api(h.url, 'POST', RUNS, {
      token,
      idempotencyKey: idemKey(),
      body: { objective: `${objective}-jwt` },
    });
    expect(jwtRun.status, jwtRun.text).toBe(201);
    const providerKey = `sk-proj-${randomBytes(24).toString('hex')}`;
    const provider = await api(h.url, 'POST', PROVIDERS, {
      token: key,
      body: {
        kind: 'openai-responses',
        base_url: 'https://api.openai.com/v1',
        model: 'gpt-5',
        api_key: providerKey,
        label: `provider-${label}`,
      },
    });
    expect(provider.status, provider.text).toBe(201);
    // The JWT owner's run is still waiting: a completed run cannot be bound.
    const rooms = await populateRooms(accountId, tenant, jwtSubject, jwtRun.body.run_id as string);
    return {
      rooms,
      accountId,
      key,
      keyId: keyRecord.keyId,
      keyHash: hashApiKey(key),
      passwordHash: account.passwordHash!,
      sessionHash: secretHash(session.cookie),
      runIds: [started.body.run_id as string, jwtRun.body.run_id as string],
      objective,
      providerId: provider.body.provider_id as string,
      providerKey,
      ownerHashes: [
        ownerHashOf({ tenantId: tenant, issuer: API_KEY_ISSUER, subject: accountId, accountId }, secret),
        ownerHashOf({ tenantId: tenant, issuer: 'helix-local', subject: jwtSubject, accountId }, secret),
      ],
    };
  };
  /** Shared Live Room rows of the subject: a room (with its member and consent rows), an invite, a run and a chat binding. */
  const populateRooms = async (accountId: string, tenant: string, subject: string, runId: string) => {
    const store = h.testStore.store;
    const allowAll = async () => ({ ...DENY_ALL, features: featuresFrom(['shared_live_room', 'developer']) });
    const deps: RoomDeps = {
      store,
      instanceSecret: secret,
      policies: { forPrincipal: allowAll, forAccount: allowAll },
      receiptTtlMs: 86_400_000,
      adapters: createAdapterRegistry({ fixturesEnabled: false }),
      now: () => Date.now(),
    };
    const owner: Principal = {
      kind: 'local_jwt',
      tenantId: tenant,
      issuer: 'helix-local',
      subject,
      accountId,
      scopes: ScopeSet.parse('helix.rooms.manage helix.agent_runs.write helix.room_sources.manage'),
      credentialId: 'jti_rooms',
      linkedAccount: true,
    };
    const room = await createRoom(deps, owner, idemKey(), { title: `room of ${accountId}` });
    const roomId = room.body.room.room_id;
    const invite = await createInvite(deps, accountId, roomId, { role: 'member' });
    const binding = await bindRun(deps, owner, { room_id: roomId, run_id: runId });
    const chatRef = `rcb_${randomBytes(16).toString('hex')}`;
    await store.read.rooms.insertChatBinding({
      bindingRef: chatRef,
      runId,
      ownerHash: ownershipOf(owner, secret).ownerHash,
      chatSessionId: null,
      status: 'active',
      createdAt: Date.now(),
      revokedAt: null,
    });
    // The console's chats (issue 17): a chat, a message and an observer binding with a snapshot.
    const chat = await createChat(deps, accountId, `chat of ${accountId}`);
    await postMessage(deps, accountId, chat.chatId, 'What happened?');
    await issueObserverBinding(deps, accountId, {
      chat_session_id: chat.chatId,
      context: { messages: [{ role: 'user', content: 'What happened?' }] },
    });
    // Room sources (issue 15): a source, its claimed delivery and an admission row.
    const source = await createSource(deps, owner, roomId, idemKey(), {
      domain_adapter: 'game.minecraft.readonly.v1',
      world_id: 'minecraft:overworld',
      source_label: 'Survival',
      ttl_ms: 3_600_000,
    });
    const sourceId = source.body.source.source_id;
    const claimHandle = source.body.credential_delivery?.claim_handle ?? '';
    const { token_value: sourceBearer } = await claimDelivery(deps, accountId, claimHandle);
    // The ingress lane (issue 15 item 3), through its use cases: an admission, a heartbeat, a
    // world event, a probe polled and answered: 5 requests, a status row, 2 observations, a probe.
    const sourceRow = await store.read.roomSources.getSource(sourceId);
    if (sourceRow === undefined) throw new Error('source row missing');
    const at = Date.now();
    await submitManifest(deps, sourceRow, manifestBody(SUBJECT_EPOCH, at, 'minecraft:overworld'));
    await recordHeartbeat(deps, sourceRow, heartbeatBody(SUBJECT_EPOCH, at, null));
    await recordWorldEvents(deps, sourceRow, batchBody(SUBJECT_EPOCH, at, 'minecraft:overworld', [snapshot()]));
    const probeId = await insertPendingProbe(store, sourceId, at, { runId });
    await pollProbes(deps, sourceRow, pollBody(SUBJECT_EPOCH, at));
    await recordProbeResult(
      deps,
      sourceRow,
      probeResultBody(SUBJECT_EPOCH, at, { probe_id: probeId, probe_type: MINECRAFT_INVENTORY_CHECK_PROBE }),
    );
    return {
      roomId,
      inviteToken: invite.token,
      bindingRef: binding.body.binding_ref,
      chatRef,
      sourceId,
      claimHandle,
      sourceBearer,
    };
  };
  let alice: Awaited<ReturnType<typeof populate>>;
  let bob: Awaited<ReturnType<typeof populate>>;

  /** Strings only the subject's rows contain: every row of it holds at least one. */
  const markersOf = (s: typeof alice): string[] => [
    s.accountId,
    ...s.runIds,
    ...s.ownerHashes,
    s.objective,
    s.keyId,
    s.providerId,
    s.rooms.roomId,
    s.rooms.chatRef,
    s.rooms.sourceId,
  ];
  const rowsWith = (dump: TableDump, markers: readonly string[]) =>
    Object.entries(dump).flatMap(([table, rows]) =>
      rows.filter((row) => markers.some((m) => row.includes(m))).map((row) => `${table}: ${row}`),
    );
  /** Every row but the subject's, leaving out the tables that change by themselves or by the erase's own audit. */
  const rowsWithout = (dump: TableDump, markers: readonly string[]) =>
    Object.fromEntries(
      Object.entries(dump)
        .filter(([table]) => !['helix_workers', 'helix_subject_erasures'].includes(table))
        .map(([table, rows]) => [table, rows.filter((row) => !markers.some((m) => row.includes(m)))]),
    );

  const show = (accountId: string, token = operator) =>
    api(h.url, 'GET', `${SUBJECTS}/${encodeURIComponent(accountId)}`, { token });
  const exportOf = (accountId: string, token = operator) =>
    api(h.url, 'GET', `${SUBJECTS}/${encodeURIComponent(accountId)}/export`, { token });
  /** `key` null sends no Idempotency-Key. */
  const erase = (accountId: string, key: string | null = idemKey(), token = operator, body?: unknown) =>
    api(h.url, 'POST', `${SUBJECTS}/${encodeURIComponent(accountId)}/erase`, {
      token,
      ...(key === null ? {} : { idempotencyKey: key }),
      ...(body === undefined ? {} : { body }),
    });

  beforeAll(async () => {
    h = await startTestHelix(flavour, {
      executor: new ScriptedExecutor([], groundedTurn),
      resolveHost: tableResolver(PUBLIC_DNS),
      env: {
        HELIX_AGENT_DATABASE_SCOPES: 'research_library',
        HELIX_AGENT_ALLOW_LOCAL_HS256: '1',
        HELIX_AGENT_LOCAL_JWT_SECRET: JWT_SECRET,
        HELIX_PROVIDER_SECRET_KEY: randomBytes(32).toString('base64'),
      },
    });
    secret = await loadInstanceSecret(h.testStore.store);
    operator = await h.key(OPERATOR_SCOPES, 'operations', 'operator');
    operatorKeyId = (await findActiveApiKey(h.testStore.store, operator))!.keyId;
    alice = await populate('alice');
    bob = await populate('bob');
  }, 60_000);
  afterAll(async () => h?.close());

  it('is refused with 403 insufficient_scope, naming the ADR-0004 scope, to tokens, the aep:* wildcard and other keys', async () => {
    const jwt = await localToken('ops', { tenant_id: 'operations', scope: OPERATOR_SCOPES });
    const wildcard = await h.key('aep:*', 'operations', 'operator');
    const runKey = await h.key('helix.agent_runs.read helix.agent_runs.write agent.write', 'operations', 'operator');
    const readOnly = await h.key('subject.read', 'operations', 'operator');
    const cases: (readonly [() => Promise<ApiResponse>, string])[] = [
      ...[jwt, wildcard, runKey].flatMap((token): (readonly [() => Promise<ApiResponse>, string])[] => [
        [() => show(alice.accountId, token), 'subject.read'],
        [() => exportOf(alice.accountId, token), 'subject.export'],
        [() => erase(alice.accountId, idemKey(), token), 'subject.erase'],
      ]),
      [() => exportOf(alice.accountId, readOnly), 'subject.export'],
      [() => erase(alice.accountId, idemKey(), readOnly), 'subject.erase'],
    ];
    for (const [request, scope] of cases) {
      const res = await request();
      expect(res.status, res.text).toBe(403);
      expect(res.body).toMatchObject({ code: 'insufficient_scope', adr_code: -32001, scope });
      expect(res.headers.get('www-authenticate')).toContain(`scope="${scope}"`);
    }
    expect((await show(alice.accountId, readOnly)).status).toBe(200);
    expect((await api(h.url, 'GET', `${SUBJECTS}/${alice.accountId}`)).status).toBe(401);
  });

  it('answers subject_not_found (404, -32006) for an unknown subject, and 400 for bad input', async () => {
    for (const res of [await show('nobody-here'), await exportOf('nobody-here'), await erase('nobody-here')]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({
        schema: 'helix.agent_api.error.v1',
        code: 'subject_not_found',
        adr_code: -32006,
      });
    }
    const malformed = await show('not an id');
    expect(malformed.status).toBe(400);
    expect(malformed.body.issues).toEqual([{ path: 'account_id', message: expect.any(String) }]);
    expect((await show('x'.repeat(201))).body.code).toBe('invalid_request');
    expect((await show('x'.repeat(300))).body.code).toBe('invalid_request');
    const keyless = await erase(alice.accountId, null);
    expect(keyless.status).toBe(400);
    expect(keyless.body.code).toBe('idempotency_key_required');
    expect(keyless.headers.get('idempotency-replayed')).toBe('false');
    expect((await erase(alice.accountId, idemKey(), operator, { confirm: true })).status).toBe(400);
    expect((await api(h.url, 'DELETE', `${SUBJECTS}/${alice.accountId}`, { token: operator })).status).toBe(405);
  });

  it('refuses to erase while a turn of the subject is in progress (409 run_busy), erasing nothing', async () => {
    const started = await api(h.url, 'POST', RUNS, {
      token: alice.key,
      idempotencyKey: idemKey(),
      body: { objective: `${alice.objective}-hold`, database_scope: ['research_library'] },
    });
    alice.runIds.push(started.body.run_id);
    const turn = api(h.url, 'POST', `${RUNS}/${started.body.run_id}/continue`, {
      token: alice.key,
      idempotencyKey: idemKey(),
      body: { expected_version: 1, instruction: 'find it' },
    });
    await waitFor(async () => (await h.testStore.store.read.runs.get(started.body.run_id))?.activeTurn != null);
    const before = await dumpTables(h.testStore);
    const refused = await erase(alice.accountId);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'run_busy', adr_code: -32011 });
    held.release();
    expect((await turn).body.lifecycle_status).toBe('completed');
    expect(rowsWithout(await dumpTables(h.testStore), [])).toMatchObject({
      helix_accounts: before.helix_accounts,
      helix_subject_owners: before.helix_subject_owners,
    });
    expect((await show(alice.accountId)).status).toBe(200);
  });

  it('counts every record kind of the subject', async () => {
    const res = await show(alice.accountId);
    expect(res.status).toBe(200);
    // Each run's event count as its owner reads it: the JWT owner's run through its own token.
    const jwt = await localToken('jwt-alice', {
      tenant_id: 'tenant-alice',
      account_id: alice.accountId,
      scope: 'helix.agent_runs.read',
    });
    let events = 0;
    for (const runId of alice.runIds) {
      const listed = await api(h.url, 'GET', `${RUNS}/${runId}/events?limit=100`, {
        token: runId === alice.runIds[1] ? jwt : alice.key,
      });
      expect(listed.status, listed.text).toBe(200);
      events += listed.body.events.length;
    }
    expect(res.body).toEqual({
      schema: 'helix.subject.v1',
      account_id: alice.accountId,
      records: {
        account: 1,
        account_policy: 1,
        api_keys: 1,
        agent_bindings: 1,
        linked_providers: 1,
        sessions: 1,
        one_time_tokens: 2,
        runs: 3,
        run_events: events,
        run_artifacts: 4,
        run_agent_executors: 0,
        idempotency_receipts: 7,
        model_providers: 1,
        rooms: 1,
        room_memberships: 1,
        room_consent_versions: 1,
        room_invites: 1,
        room_invites_used: 0,
        room_run_bindings: 1,
        room_chat_bindings: 1,
        chats: 1,
        chat_messages: 1,
        chat_observer_bindings: 1,
        room_sources: 1,
        room_source_deliveries: 1,
        room_source_admissions: 1,
        room_ingress_requests: 5,
        room_source_status: 1,
        room_observations: 2,
        room_probes: 1,
        runtime_approvals: 0,
        environment_subjects: 0,
        environment_workflows: 0,
        environment_actions: 0,
        environment_controls: 0,
        owner_registrations: 2,
      },
      total: 46 + events,
    });
  });

  it('exports every record as one JSON document, without the sealed key, the key hash or any other credential', async () => {
    const res = await exportOf(alice.accountId);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { records } = res.body;
    expect(res.body).toMatchObject({
      schema: 'helix.subject_export.v1',
      account_id: alice.accountId,
      exported_at: expect.stringMatching(/^\d{4}-/),
    });
    expect(records.account).toEqual([
      expect.objectContaining({ account_id: alice.accountId, display_name: 'Person alice', status: 'active' }),
    ]);
    expect(records.api_keys).toEqual([
      expect.objectContaining({
        key_id: alice.keyId,
        tenant_id: 'tenant-alice',
        scopes: OWNER_SCOPES.split(' ').sort(),
      }),
    ]);
    expect(records.runs.map((r: { run_id: string }) => r.run_id).sort()).toEqual([...alice.runIds].sort());
    const first = records.runs.find((r: { run_id: string }) => r.run_id === alice.runIds[0]);
    expect(first).toMatchObject({
      objective: alice.objective,
      lifecycle_status: 'completed',
      state: expect.objectContaining({ evidenceRefs: expect.any(Array) }),
    });
    expect(
      records.run_events
        .filter((e: { run_id: string }) => e.run_id === alice.runIds[0])
        .map((e: { kind: string }) => e.kind),
    ).toContain('run.started');
    expect(records.run_artifacts.filter((a: { run_id: string }) => a.run_id === alice.runIds[0])).toEqual([
      expect.objectContaining({
        status: 'admitted',
        excerpt: expect.stringContaining(alice.objective),
        provenance: expect.objectContaining({ source_id: 'scripted' }),
      }),
      expect.objectContaining({ status: 'admitted', excerpt: expect.stringContaining(alice.objective) }),
    ]);
    expect(records.model_providers).toEqual([
      {
        provider_id: alice.providerId,
        kind: 'openai-responses',
        base_url: 'https://api.openai.com/v1',
        model: 'gpt-5',
        reasoning_effort: null,
        label: 'provider-alice',
        created_at: expect.any(String),
      },
    ]);
    expect(records.agent_bindings).toEqual([
      expect.objectContaining({ issuer: 'https://login.example.com', provider: 'idp', status: 'active' }),
    ]);
    expect(records.idempotency_receipts).toHaveLength(7);
    // Shared Live Room: the subject's room, membership, consent version, invite and bindings, never the invite token or its hash.
    expect(records.rooms).toEqual([
      expect.objectContaining({ room_id: alice.rooms.roomId, owner_account_id: alice.accountId }),
    ]);
    expect(records.room_memberships).toEqual([expect.objectContaining({ room_id: alice.rooms.roomId, role: 'owner' })]);
    expect(records.room_consent_versions).toEqual([
      expect.objectContaining({ room_id: alice.rooms.roomId, version: 1 }),
    ]);
    expect(records.room_invites).toEqual([expect.objectContaining({ room_id: alice.rooms.roomId, role: 'member' })]);
    expect(records.room_run_bindings).toEqual([
      expect.objectContaining({ binding_ref: alice.rooms.bindingRef, run_id: alice.runIds[1], status: 'active' }),
    ]);
    expect(records.room_chat_bindings).toEqual([expect.objectContaining({ binding_ref: alice.rooms.chatRef })]);
    expect(records.room_sources).toEqual([
      expect.objectContaining({
        source_id: alice.rooms.sourceId,
        domain_adapter: 'game.minecraft.readonly.v1',
        status: 'active',
      }),
    ]);
    expect(records.room_source_deliveries).toEqual([expect.objectContaining({ source_id: alice.rooms.sourceId })]);
    expect(records.room_source_admissions).toEqual([expect.objectContaining({ source_id: alice.rooms.sourceId })]);
    expect(records.sessions).toHaveLength(1);
    expect(records.one_time_tokens.map((t: { purpose: string }) => t.purpose).sort()).toEqual([
      'link_intent',
      'sign_in',
    ]);
    // Bob's rows are not Alice's.
    expect(res.text).not.toContain(bob.accountId);
    expect(res.text).not.toContain(bob.runIds[0]);
    const sealed = (await h.testStore.store.read.modelProviders.getForOwner(alice.ownerHashes[0]!, alice.providerId))!
      .secret!;
    for (const secretValue of [
      alice.providerKey,
      alice.providerKey.slice(8, 28),
      sealed.ciphertext,
      alice.key,
      alice.keyHash,
      alice.passwordHash,
      alice.sessionHash,
      alice.rooms.inviteToken,
      sha256Hex(alice.rooms.inviteToken),
      alice.rooms.sourceBearer,
      sha256Hex(alice.rooms.sourceBearer),
      alice.rooms.claimHandle,
      sha256Hex(alice.rooms.claimHandle),
      SUBJECT_EPOCH,
      sha256Hex(SUBJECT_EPOCH),
      ...alice.ownerHashes,
    ]) {
      expect(res.text).not.toContain(secretValue);
    }
  });

  it('erases every row of the subject in every table, audited, leaving the other subject untouched', async () => {
    const markers = markersOf(alice);
    const subjectKey = dataSubjectKey(secret, alice.accountId);
    const before = await dumpTables(h.testStore);
    // The markers are meaningful: before the erase, the subject's rows hold every one of them.
    for (const marker of markers) expect(rowsWith(before, [marker]), marker).not.toEqual([]);
    const counted = (await show(alice.accountId)).body.records;

    const key = idemKey('erase');
    const res = await erase(alice.accountId, key);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('idempotency-replayed')).toBe('false');
    expect(res.body).toEqual({
      schema: 'helix.subject_erasure.v1',
      account_id: alice.accountId,
      erasure_id: expect.stringMatching(/^era_[A-Za-z0-9_-]{22}$/),
      erased_at: expect.any(String),
      records: counted,
    });

    const after = await dumpTables(h.testStore);
    expect(rowsWith(after, markers)).toEqual([]);
    // The audit keeps the subject key (a keyed hash), who asked and the counts: nothing else of the subject.
    expect(rowsWith(after, [subjectKey])).toEqual([expect.stringMatching(/^helix_subject_erasures: /)]);
    expect(after.helix_subject_erasures!.find((row) => row.includes(subjectKey))).toContain(operatorKeyId);
    // Every other row, Bob's included, is exactly as it was.
    expect(rowsWithout(after, markers)).toEqual(rowsWithout(before, markers));
    if (flavour.name === 'sqlite') {
      const bytes = sqliteFileBytes(h.testStore.location!);
      for (const marker of [...markers, alice.providerKey]) expect(bytes.includes(marker), marker).toBe(false);
      expect(bytes.includes(bob.accountId)).toBe(true);
    }

    expect((await show(alice.accountId)).body.code).toBe('subject_not_found');
    expect((await exportOf(alice.accountId)).body.code).toBe('subject_not_found');
    expect((await api(h.url, 'GET', `${RUNS}/${alice.runIds[0]}`, { token: alice.key })).status).toBe(401);
    expect((await api(h.url, 'GET', `${RUNS}/${bob.runIds[0]}`, { token: bob.key })).status).toBe(200);
    expect((await show(bob.accountId)).body.records).toMatchObject({
      runs: 2,
      api_keys: 1,
      model_providers: 1,
      owner_registrations: 2,
    });

    // Idempotent: the same key, or a later erase under another key, answers the first receipt.
    for (const again of [await erase(alice.accountId, key), await erase(alice.accountId)]) {
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotency-replayed')).toBe('true');
      expect(again.body).toEqual(res.body);
    }
    // The key belongs to Alice's erase: reused for Bob it is a conflict, and Bob stays.
    expect((await erase(bob.accountId, key)).body.code).toBe('idempotency_conflict');
    expect((await show(bob.accountId)).status).toBe(200);
    expect((await dumpTables(h.testStore)).helix_subject_erasures).toHaveLength(1);
  });
});
