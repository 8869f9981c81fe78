import { compactVerify, decodeJwt, decodeProtectedHeader } from 'jose';
import { z } from 'zod';
import { HelixError } from '../../domain/errors.js';
import { ROOM_ID_PATTERN } from '../../domain/rooms.js';
import { RUN_ID_PATTERN } from '../../domain/run.js';
import {
  findTrustedKey,
  RUNTIME_APPROVAL_ALGORITHMS,
  RUNTIME_APPROVAL_RECEIPT as RECEIPT,
  RUNTIME_APPROVAL_REGISTRY_LIMITS as LIMITS,
  SUBJECT_REF_PATTERN,
  type ApprovalBinding,
  type ApprovalRefusalReason,
  type TrustedApprovalKey,
  type VerifiedApproval,
} from '../../domain/runtimeApproval.js';

/** The payload as signed: exactly these claims, each bounded; run and turn are null together. */
const ClaimsSchema = z
  .strictObject({
    iss: z.string().min(1).max(LIMITS.maxIssuerChars),
    aud: z.literal(RECEIPT.audience),
    jti: z.string().regex(RECEIPT.noncePattern),
    iat: z.number().int().nonnegative(),
    exp: z.number().int().positive(),
    action_sha256: z.string().regex(/^[0-9a-f]{64}$/),
    room_id: z.string().regex(ROOM_ID_PATTERN),
    subject_ref: z.string().regex(SUBJECT_REF_PATTERN),
    run_id: z.string().regex(RUN_ID_PATTERN).nullable(),
    turn: z.number().int().nonnegative().max(1_000_000).nullable(),
  })
  .refine((c) => (c.run_id === null) === (c.turn === null));
type Claims = z.output<typeof ClaimsSchema>;

const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * Each part in its one canonical base64url spelling: a decoder ignores a last character's unused
 * bits, so without this one signed receipt would have several accepted spellings.
 */
const isCanonical = (receipt: string): boolean =>
  receipt.split('.').every((part) => Buffer.from(part, 'base64url').toString('base64url') === part);

const invalidReceipt = (reason: ApprovalRefusalReason): HelixError =>
  new HelixError(
    'runtime_approval_receipt_invalid',
    {},
    `The runtime approval receipt is invalid for this action (${reason}).`,
  );

/** APR-02: the key the receipt names, by its exact issuer (payload) and key id (protected header). */
const trustedKeyOf = (keys: readonly TrustedApprovalKey[], receipt: string): TrustedApprovalKey => {
  if (receipt === '') throw invalidReceipt('missing');
  if (receipt.length > RECEIPT.maxReceiptChars || !COMPACT_JWS.test(receipt) || !isCanonical(receipt))
    throw invalidReceipt('malformed');
  let named: { kid: unknown; iss: unknown };
  try {
    named = { kid: decodeProtectedHeader(receipt).kid, iss: decodeJwt(receipt).iss };
  } catch {
    throw invalidReceipt('malformed');
  }
  if (typeof named.kid !== 'string' || typeof named.iss !== 'string') throw invalidReceipt('malformed');
  const key = findTrustedKey(keys, named.iss, named.kid);
  if (key === undefined) throw invalidReceipt('untrusted_key');
  return key;
};

/** The signature over header and payload, then the claims; the issuer read before is now signed. */
const verifiedClaims = async (receipt: string, key: TrustedApprovalKey): Promise<Claims> => {
  let verified: Awaited<ReturnType<typeof compactVerify>>;
  try {
    verified = await compactVerify(receipt, key.publicKey, { algorithms: [...RUNTIME_APPROVAL_ALGORITHMS] });
  } catch {
    throw invalidReceipt('bad_signature');
  }
  if (verified.protectedHeader.typ !== RECEIPT.type) throw invalidReceipt('malformed');
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder().decode(verified.payload));
  } catch {
    throw invalidReceipt('malformed');
  }
  const claims = ClaimsSchema.safeParse(payload);
  if (!claims.success || claims.data.iss !== key.issuer) throw invalidReceipt('malformed');
  return claims.data;
};

/**
 * A bounded lifetime (a receipt approves the current turn, not a standing grant), issued no later
 * than now and not yet expired, each within the tolerated clock skew.
 */
const checkLifetime = (claims: Claims, now: number): void => {
  const lifetime = claims.exp - claims.iat;
  if (lifetime <= 0 || lifetime > RECEIPT.maxLifetimeSeconds) throw invalidReceipt('malformed');
  const nowSeconds = now / 1000;
  if (claims.iat > nowSeconds + RECEIPT.clockSkewSeconds) throw invalidReceipt('malformed');
  if (nowSeconds > claims.exp + RECEIPT.clockSkewSeconds) throw new HelixError('runtime_approval_receipt_expired');
};

/** Every bound field equals what the caller is about to do, exactly (D-11). */
const matchesBinding = (claims: Claims, expected: ApprovalBinding): boolean =>
  claims.action_sha256 === expected.actionSha256 &&
  claims.room_id === expected.roomId &&
  claims.subject_ref === expected.subjectRef &&
  claims.run_id === expected.runId &&
  claims.turn === expected.turn;

/**
 * Verifies a runtime approval receipt (docs/embodiment.md "Runtime approval receipts") against the
 * trusted keys, at `now`, for the exact action about to happen; does not consume it. No key
 * registry is `runtime_approval_host_unconfigured` whatever the receipt says (APR-04, APR-08).
 */
export const verifyReceipt = async (
  keys: readonly TrustedApprovalKey[],
  receipt: string,
  expected: ApprovalBinding,
  now: number,
): Promise<VerifiedApproval> => {
  if (keys.length === 0) throw new HelixError('runtime_approval_host_unconfigured');
  const key = trustedKeyOf(keys, receipt);
  const claims = await verifiedClaims(receipt, key);
  checkLifetime(claims, now);
  if (!matchesBinding(claims, expected)) throw invalidReceipt('binding_mismatch');
  return {
    issuer: key.issuer,
    keyId: key.keyId,
    nonce: claims.jti,
    issuedAt: claims.iat * 1000,
    expiresAt: claims.exp * 1000,
    actionSha256: claims.action_sha256,
    roomId: claims.room_id,
    subjectRef: claims.subject_ref,
    runId: claims.run_id,
    turn: claims.turn,
  };
};
