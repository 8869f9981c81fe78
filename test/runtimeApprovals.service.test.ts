import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { CompactSign } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signApproval, type SignRequest } from '../src/cli/approvalHost.js';
import type { TrustedApprovalKey } from '../src/domain/runtimeApproval.js';
import type { ApprovalDeps } from '../src/service/approvals/deps.js';
import { verifyAndConsumeApproval, type ApprovalRequest } from '../src/service/approvals/verifyAndConsumeApproval.js';
import { openStore } from '../src/store/openStore.js';
import { storeFlavours, type TestStore } from './support/stores.js';
import { dumpTables, inspectable } from './support/tableDump.js';

// Runtime approval receipts: docs/spec/shared-live-room-requirements.md APR-02..APR-09, D-06, D-11.
const T = 4_102_444_800_000; // 2100-01-01: BIGINT instants round-trip exactly
const ISSUER = 'workstation.local';
const KEY_ID = 'key-1';
const ROOM_A = `room_${'a'.repeat(24)}`;
const ROOM_B = `room_${'b'.repeat(24)}`;
const OWNER = 'c'.repeat(64);
const RUN = 'run_approval-test-1';
const ACTION = { kind: 'place', block: 'minecraft:stone', at: { x: 1, y: 64, z: -3 } };
const TABLE = 'helix_runtime_approval_receipts';

const pair = generateKeyPairSync('ed25519');
const otherPair = generateKeyPairSync('ed25519');
const trusted: TrustedApprovalKey[] = [{ issuer: ISSUER, keyId: KEY_ID, publicKey: pair.publicKey }];

/** The action, room, subject, run and turn a receipt is signed for and, unless a test says otherwise, used for. */
const BOUND = { action: ACTION, roomId: ROOM_A, subjectRef: 'player-1', runId: RUN, turn: 3 } as const;

const signRequest = (extra: Partial<SignRequest> = {}): SignRequest => ({
  ...BOUND,
  issuer: ISSUER,
  keyId: KEY_ID,
  ttlSeconds: 120,
  issuedAt: T / 1000,
  ...extra,
});

const sign = (extra: Partial<SignRequest> = {}, key: KeyObject = pair.privateKey): Promise<string> =>
  signApproval(key, signRequest(extra));

/** What the caller is about to do: the same action, room, subject, run and turn as signRequest(). */
const request = (receipt: string | undefined, extra: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  ...BOUND,
  receipt,
  ownerHash: OWNER,
  ...extra,
});

/** A receipt signed by the trusted key with a hand-made header and payload (the attacks a host could send). */
const handMade = (header: Record<string, unknown>, payload: Record<string, unknown>): Promise<string> =>
  new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: 'EdDSA', ...header })
    .sign(pair.privateKey);

const claimsOf = (receipt: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(receipt.split('.')[1]!, 'base64url').toString('utf8'));

const refusal = async (promise: Promise<unknown>): Promise<{ code: string; message: string }> => {
  try {
    await promise;
  } catch (err) {
    const e = err as { code: string; message: string };
    return { code: e.code, message: e.message };
  }
  throw new Error('expected a refusal');
};

describe.each(inspectable(storeFlavours()))('runtime approval receipts on $name', (flavour) => {
  let t: TestStore;
  let now = T;
  const deps = (trustedKeys: readonly TrustedApprovalKey[] = trusted): ApprovalDeps => ({
    store: t.store,
    trustedKeys,
    now: () => now,
  });
  const consume = (req: ApprovalRequest, keys?: readonly TrustedApprovalKey[]) =>
    verifyAndConsumeApproval(deps(keys), req);
  const ledger = async () => ((await dumpTables(t))[TABLE] ?? []).map((row) => JSON.parse(row));

  beforeAll(async () => {
    t = await flavour.create();
  });
  afterAll(async () => t.dispose());

  it('D-11, D-06: a valid receipt is consumed once, durably, and its identity returned for the audit', async () => {
    now = T + 5_000;
    const receipt = await sign();
    const consumed = await consume(request(receipt));
    expect(consumed).toMatchObject({
      approvalId: expect.stringMatching(/^apr_[0-9a-f]{32}$/),
      issuer: ISSUER,
      keyId: KEY_ID,
      roomId: ROOM_A,
      subjectRef: 'player-1',
      runId: RUN,
      turn: 3,
      issuedAt: T,
      expiresAt: T + 120_000,
      consumedAt: T + 5_000,
      ownerHash: OWNER,
    });
    const rows = await ledger();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      approval_id: consumed.approvalId,
      issuer: ISSUER,
      key_id: KEY_ID,
      owner_hash: OWNER,
      room_id: ROOM_A,
      subject_ref: 'player-1',
      run_id: RUN,
      turn: 3,
      action_sha256: consumed.actionSha256,
    });
    expect(Number(rows[0].expires_at)).toBe(T + 120_000);
    // The receipt itself is not kept: nothing in the ledger could be presented again.
    expect(JSON.stringify(rows)).not.toContain(receipt.split('.')[2]);

    // D-06: a replay of the same receipt, even for the same action, is refused.
    expect(await refusal(consume(request(receipt)))).toMatchObject({ code: 'runtime_approval_receipt_replayed' });
    expect(await ledger()).toHaveLength(1);
  });

  it('APR-04, APR-08: without a key registry every approval-gated action is runtime_approval_host_unconfigured', async () => {
    const receipt = await sign();
    expect(await refusal(consume(request(receipt), []))).toMatchObject({ code: 'runtime_approval_host_unconfigured' });
    expect(await refusal(consume(request(undefined), []))).toMatchObject({
      code: 'runtime_approval_host_unconfigured',
    });
  });

  it('APR-09: an action without a receipt is refused, never assumed approved', async () => {
    for (const missing of [undefined, '']) {
      expect(await refusal(consume(request(missing)))).toEqual({
        code: 'runtime_approval_receipt_invalid',
        message: 'The runtime approval receipt is invalid for this action (missing).',
      });
    }
  });

  it('APR-02: a key id or issuer not in the registry is refused (untrusted_key)', async () => {
    now = T;
    const unknownKey = await sign({ keyId: 'key-2' });
    expect(await refusal(consume(request(unknownKey)))).toMatchObject({
      code: 'runtime_approval_receipt_invalid',
      message: expect.stringContaining('(untrusted_key)'),
    });
    const unknownIssuer = await sign({ issuer: 'WORKSTATION.local' });
    expect((await refusal(consume(request(unknownIssuer)))).message).toContain('(untrusted_key)');
  });

  it('APR-02: a receipt naming the trusted key but signed by another key is refused (bad_signature)', async () => {
    const forged = await sign({}, otherPair.privateKey);
    expect(await refusal(consume(request(forged)))).toMatchObject({
      code: 'runtime_approval_receipt_invalid',
      message: expect.stringContaining('(bad_signature)'),
    });
    // A payload changed after signing (here: another room) fails the signature too.
    const [header, , signature] = (await sign()).split('.');
    const payload = Buffer.from(JSON.stringify({ ...claimsOf(await sign()), room_id: ROOM_B })).toString('base64url');
    const tampered = `${header}.${payload}.${signature}`;
    expect((await refusal(consume(request(tampered, { roomId: ROOM_B })))).message).toContain('(bad_signature)');
    // alg "none" or an HMAC over the public key is never accepted.
    const noneHeader = Buffer.from(JSON.stringify({ alg: 'none', kid: KEY_ID })).toString('base64url');
    expect((await refusal(consume(request(`${noneHeader}.${payload}.`)))).message).toMatch(
      /\((malformed|bad_signature)\)/,
    );
  });

  it('D-11: a receipt for room A is refused in room B, and is still good for room A afterwards', async () => {
    now = T;
    const receipt = await sign();
    expect(await refusal(consume(request(receipt, { roomId: ROOM_B })))).toEqual({
      code: 'runtime_approval_receipt_invalid',
      message: 'The runtime approval receipt is invalid for this action (binding_mismatch).',
    });
    // A mismatched attempt consumes nothing, so it cannot burn the approval of the real action.
    await expect(consume(request(receipt))).resolves.toMatchObject({ roomId: ROOM_A });
  });

  it('D-11: another action, subject, run or turn than the one signed is a binding_mismatch', async () => {
    const receipt = await sign();
    const others: Partial<ApprovalRequest>[] = [
      { action: { ...ACTION, at: { x: 1, y: 64, z: -4 } } },
      { action: { ...ACTION, kind: 'mine' } },
      { subjectRef: 'player-2' },
      { turn: 4 },
      { runId: 'run_approval-test-2' },
      { runId: null, turn: null },
    ];
    for (const other of others) {
      expect((await refusal(consume(request(receipt, other)))).message).toContain('(binding_mismatch)');
    }
    // The same action written with other key order or spacing is the same canonical action.
    const reordered = { at: { z: -3, y: 64, x: 1 }, block: 'minecraft:stone', kind: 'place' };
    await expect(consume(request(receipt, { action: reordered }))).resolves.toMatchObject({ turn: 3 });
  });

  it('an action outside a run is approved by a receipt with run and turn null, and only by one', async () => {
    const outside = await sign({ runId: null, turn: null });
    expect((await refusal(consume(request(outside)))).message).toContain('(binding_mismatch)');
    await expect(consume(request(outside, { runId: null, turn: null }))).resolves.toMatchObject({
      runId: null,
      turn: null,
    });
  });

  it('an expired receipt is refused (with the clock skew tolerated) and not consumed', async () => {
    const receipt = await sign({ ttlSeconds: 60 });
    now = T + 60_000 + 31_000;
    expect(await refusal(consume(request(receipt)))).toMatchObject({ code: 'runtime_approval_receipt_expired' });
    now = T + 60_000 + 30_000;
    await expect(consume(request(receipt))).resolves.toMatchObject({ expiresAt: T + 60_000 });
    now = T;
  });

  it('a lifetime over 10 minutes, an issue time in the future, or claims other than the format are malformed', async () => {
    const tooLong = await sign({ ttlSeconds: 601 });
    expect((await refusal(consume(request(tooLong)))).message).toContain('(malformed)');
    const future = await sign({ issuedAt: T / 1000 + 31 });
    expect((await refusal(consume(request(future)))).message).toContain('(malformed)');
    const claims = claimsOf(await sign());
    const header = { typ: 'helix-runtime-approval+jwt', kid: KEY_ID };
    const variants: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ ...header, typ: 'JWT' }, claims],
      [header, { ...claims, aud: 'some-other-service' }],
      [header, { ...claims, scope: 'everything' }],
      [header, { ...claims, jti: 'short' }],
      [header, { ...claims, turn: null }],
    ];
    for (const [h, p] of variants) {
      expect((await refusal(consume(request(await handMade(h, p))))).message).toContain('(malformed)');
    }
    expect(await ledger()).toHaveLength(5);
  });

  it('D-06: two concurrent consumers of one receipt: exactly one wins', async () => {
    const receipt = await sign();
    const outcomes = await Promise.allSettled([consume(request(receipt)), consume(request(receipt))]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const lost = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason).toMatchObject({ code: 'runtime_approval_receipt_replayed' });
  });

  // PGlite lives inside one process, so only SQLite files and PostgreSQL servers have replicas.
  it.skipIf(flavour.name === 'pglite')(
    'APR-03, D-06: two replicas (separate connections to one database) racing for one receipt: exactly one wins',
    async () => {
      const replica = await openStore(t.location!);
      try {
        const receipt = await sign();
        const outcomes = await Promise.allSettled([
          verifyAndConsumeApproval(deps(), request(receipt)),
          verifyAndConsumeApproval({ ...deps(), store: replica }, request(receipt)),
        ]);
        expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
        const lost = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
        expect(lost.reason).toMatchObject({ code: 'runtime_approval_receipt_replayed' });
      } finally {
        await replica.close();
      }
    },
  );

  it('forgets ledger rows a day after their receipt expired; a current row stays', async () => {
    const before = (await ledger()).length;
    now = T + 120_000 + 24 * 60 * 60 * 1000 + 1;
    const fresh = await sign({ issuedAt: Math.floor(now / 1000) });
    await consume(request(fresh));
    const rows = await ledger();
    expect(before).toBeGreaterThan(1);
    expect(rows.map((r) => Number(r.issued_at))).toEqual([Math.floor(now / 1000) * 1000]);
    now = T;
  });
});
