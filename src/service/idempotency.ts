import { IdempotencyKeySchema } from '../api/schemas.js';
import { HelixError } from '../domain/errors.js';
import { canonicalJson, sha256Hex } from '../domain/hashing.js';
import type { Ownership } from '../auth/principal.js';
import type { ReceiptKey, UnitOfWork } from '../store/port.js';
import type { ServiceResult } from './result.js';

export const MUTATING_OPERATIONS = [
  'run.start',
  'run.continue',
  'run.cancel',
  'room.create',
  'room.source_create',
  'minecraft.player_action',
] as const;
export type MutatingOperation = (typeof MUTATING_OPERATIONS)[number];

/** Idempotency-Key is required on every mutation: 8-200 printable characters. */
export const requireIdempotencyKey = (key: string | undefined): string => {
  if (key === undefined || !IdempotencyKeySchema.safeParse(key).success)
    throw new HelixError('idempotency_key_required');
  return key;
};

/** An idempotent request: scoped by owner and operation, identified by the hash of its validated input. */
export interface IdempotentRequest {
  readonly receipt: ReceiptKey;
  readonly fingerprint: string;
  /** The owner's data subject, registered with the reservation (ADR-0004 subject access). */
  readonly subjectKey: string;
}

export const idempotentRequest = (
  owner: Pick<Ownership, 'ownerHash' | 'subjectKey'>,
  operation: MutatingOperation,
  key: string,
  runId: string | null,
  validatedInput: unknown,
): IdempotentRequest => ({
  // The key is hashed: it is caller-chosen and might carry something the caller considers private.
  receipt: { ownerHash: owner.ownerHash, operation, keyHash: sha256Hex(key) },
  fingerprint: sha256Hex(canonicalJson({ operation, runId, input: validatedInput })),
  subjectKey: owner.subjectKey,
});

export type Reservation =
  | { readonly kind: 'reserved' }
  | { readonly kind: 'replay'; readonly status: number; readonly body: unknown }
  | { readonly kind: 'in_progress'; readonly runId: string | null }
  | { readonly kind: 'interrupted'; readonly runId: string | null };

/** What `reserveKey` reports for a key some earlier request already used. */
export type UsedKey = Exclude<Reservation, { kind: 'reserved' }>;

/**
 * The one answer to a used key: the stored response, replayed; `outcome_unknown` when the first
 * request died without recording one; `idempotency_in_progress` while it runs. The run's id, when
 * the key belongs to a run, is in the error's detail.
 */
export const answerUsedKey = <B = unknown>(used: UsedKey): ServiceResult<B> => {
  const detail = used.kind !== 'replay' && used.runId !== null ? { run_id: used.runId } : {};
  switch (used.kind) {
    case 'replay':
      return { status: used.status, body: used.body as B, replayed: true };
    case 'interrupted':
      throw new HelixError('outcome_unknown', detail);
    case 'in_progress':
      throw new HelixError('idempotency_in_progress', detail);
  }
};

export interface ReserveOptions {
  readonly now: number;
  readonly ttlMs: number;
  /** Processing lease for long operations; null when the mutation completes in this transaction. */
  readonly lease: { readonly expiresAt: number; readonly workerId: string } | null;
  readonly runId: string | null;
}

/**
 * Claims the key inside the mutation's own transaction, or reports what already happened under it.
 * Because the receipt commits (or rolls back) with the mutation, a `processing` receipt outliving its
 * lease can only mean the process died mid-turn: that is `outcome_unknown`, never "try again".
 */
export const reserveKey = async (
  uow: UnitOfWork,
  request: IdempotentRequest,
  options: ReserveOptions,
): Promise<Reservation> => {
  // Every mutation reserves its key first, so this is where an owner's rows begin: the owner is
  // registered under its data subject in the same transaction, or subject access could not find them.
  await uow.subjects.registerOwner(request.receipt.ownerHash, request.subjectKey, options.now);
  const fresh = {
    ...request.receipt,
    fingerprint: request.fingerprint,
    runId: options.runId,
    state: 'processing' as const,
    statusCode: null,
    responseBody: null,
    leaseExpiresAt: options.lease?.expiresAt ?? null,
    workerId: options.lease?.workerId ?? null,
    createdAt: options.now,
    expiresAt: options.now + options.ttlMs,
  };
  if (await uow.receipts.insert(fresh)) return { kind: 'reserved' };

  const existing = await uow.receipts.get(request.receipt);
  if (existing === undefined || existing.expiresAt <= options.now) {
    await uow.receipts.delete(request.receipt);
    await uow.receipts.insert(fresh);
    return { kind: 'reserved' };
  }
  if (existing.fingerprint !== request.fingerprint) throw new HelixError('idempotency_conflict');
  switch (existing.state) {
    case 'completed':
      return { kind: 'replay', status: existing.statusCode ?? 200, body: JSON.parse(existing.responseBody ?? 'null') };
    case 'outcome_unknown':
      return { kind: 'interrupted', runId: existing.runId };
    case 'processing':
      if (existing.leaseExpiresAt !== null && existing.leaseExpiresAt <= options.now) {
        await uow.receipts.markOutcomeUnknown(request.receipt);
        return { kind: 'interrupted', runId: existing.runId };
      }
      return { kind: 'in_progress', runId: existing.runId };
  }
};

export const completeReceipt = (
  uow: UnitOfWork,
  request: IdempotentRequest,
  status: number,
  body: unknown,
  runId: string | null,
): Promise<void> => uow.receipts.complete(request.receipt, status, JSON.stringify(body), runId);
