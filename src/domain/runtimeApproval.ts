/**
 * Runtime approval receipts (docs/spec/shared-live-room-requirements.md §13 APR-01..APR-11, D-06,
 * D-11; docs/embodiment.md "Runtime approval receipts"): a confirmation-governed room mutation
 * needs a receipt signed by an explicit approval host with an Ed25519 key the operator trusts.
 * Helix holds only the public keys (APR-06); the private key stays with the approval host
 * (`helix approvals sign`, a separate process). Pure data and decisions; verification lives in
 * src/service/approvals/, the replay ledger in the store.
 */
import type { KeyObject } from 'node:crypto';
import { canonicalJson, sha256Hex } from './hashing.js';

/** The variable that installs the registry (APR-02, ENV-01). */
export const RUNTIME_APPROVAL_KEYS_VARIABLE = 'HELIX_RUNTIME_APPROVAL_TRUSTED_PUBLIC_KEYS_JSON';

/** APR-05: the bootstrap error a malformed or ambiguous registry stops start-up with. */
export const RUNTIME_APPROVAL_CONFIG_INVALID = 'runtime_approval_trusted_key_config_invalid';

/** APR-07 (§22): the registry's bounds. */
export const RUNTIME_APPROVAL_REGISTRY_LIMITS = {
  maxKeys: 32,
  maxTotalBytes: 64 * 1024,
  maxIssuerChars: 2_048,
  maxKeyIdChars: 256,
  maxPublicKeyPemChars: 16 * 1024,
} as const;

/** One trusted key: exactly one issuer/key-id pair, an Ed25519 public key (never a private one). */
export interface TrustedApprovalKey {
  readonly issuer: string;
  readonly keyId: string;
  readonly publicKey: KeyObject;
}

/** The exact issuer/key-id lookup (APR-02): no prefix, case folding or fallback to another key. */
export const findTrustedKey = (
  keys: readonly TrustedApprovalKey[],
  issuer: string,
  keyId: string,
): TrustedApprovalKey | undefined => keys.find((k) => k.issuer === issuer && k.keyId === keyId);

/**
 * The receipt: a compact JWS (RFC 7515) signed with EdDSA/Ed25519 whose protected header names the
 * key (`kid`) and the type below, and whose payload holds the claims below. The audience is a
 * constant, so a receipt can never be mistaken for, or replayed as, any other signed token.
 */
export const RUNTIME_APPROVAL_RECEIPT = {
  type: 'helix-runtime-approval+jwt',
  audience: 'helix.runtime_tool_confirmation.v1',
  /** Longest admitted lifetime (exp - iat): a receipt is for the current turn, not a standing grant. */
  maxLifetimeSeconds: 600,
  /** Tolerated clock difference between the approval host and Helix. */
  clockSkewSeconds: 30,
  /** The nonce (`jti`): base64url, at least 22 characters (≥ 128 random bits). */
  noncePattern: /^[A-Za-z0-9_-]{22,128}$/,
  /** A compact JWS longer than this is refused before any parsing. */
  maxReceiptChars: 8_192,
} as const;

/** The signature algorithms admitted: both names of Ed25519 (RFC 8037 `EdDSA`, RFC 9864 `Ed25519`). */
export const RUNTIME_APPROVAL_ALGORITHMS = ['EdDSA', 'Ed25519'] as const;

/**
 * The coarse reason a receipt is `runtime_approval_receipt_invalid`: enough for an operator to fix
 * the approval host, never which bound field differed (that would let a caller probe the binding).
 */
export const APPROVAL_REFUSAL_REASONS = [
  'missing',
  'malformed',
  'untrusted_key',
  'bad_signature',
  'binding_mismatch',
] as const;
export type ApprovalRefusalReason = (typeof APPROVAL_REFUSAL_REASONS)[number];

/** A subject reference as the receipt binds it: exact, opaque, bounded (MC-02 `subject_ref`). */
export const SUBJECT_REF_PATTERN = /^[A-Za-z0-9._:-]{1,320}$/;

/**
 * What the caller is about to do, exactly; every field must equal the receipt's claim. `runId` and
 * `turn` are null together for an action that is not bound to a run (a direct MCP tool call,
 * APR-11); a receipt for a run's turn never matches outside it, and the reverse.
 */
export interface ApprovalBinding {
  readonly actionSha256: string;
  readonly roomId: string;
  readonly subjectRef: string;
  readonly runId: string | null;
  readonly turn: number | null;
}

/** The exact action's fingerprint: SHA-256 of its canonical JSON (keys sorted at every depth, no spaces). */
export const approvalActionSha256 = (action: unknown): string => sha256Hex(canonicalJson(action));

/** The payload claims of a receipt, as signed. */
export interface ApprovalClaims {
  readonly iss: string;
  readonly aud: string;
  readonly jti: string;
  readonly iat: number;
  readonly exp: number;
  readonly action_sha256: string;
  readonly room_id: string;
  readonly subject_ref: string;
  readonly run_id: string | null;
  readonly turn: number | null;
}

/** A receipt that passed verification: signed by a trusted key, current, bound to this exact action. */
export interface VerifiedApproval extends ApprovalBinding {
  readonly issuer: string;
  readonly keyId: string;
  readonly nonce: string;
  readonly issuedAt: number;
  readonly expiresAt: number;
}

/**
 * The ledger identity of a receipt: one per issuer/key/nonce, so a nonce reused by another key is
 * another receipt, and a receipt presented twice is the same one (the replay ledger's key).
 */
export const approvalIdOf = (issuer: string, keyId: string, nonce: string): string =>
  `apr_${sha256Hex(canonicalJson([issuer, keyId, nonce])).slice(0, 32)}`;

/** One consumed receipt in the durable replay ledger (D-06), and what an action's audit records. */
export interface ConsumedApproval extends VerifiedApproval {
  readonly approvalId: string;
  readonly ownerHash: string;
  readonly consumedAt: number;
}

/** APR-03, D-06: whether a configured verifier has a durable one-time ledger behind it. */
export const REPLAY_PROTECTIONS = ['durable_store', 'fail_closed_unconfigured'] as const;
export type ReplayProtection = (typeof REPLAY_PROTECTIONS)[number];
