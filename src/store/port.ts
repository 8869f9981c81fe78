import type { RunEvent, NewRunEvent } from '../domain/events.js';
import type { RunRecord } from '../domain/run.js';
import type { TurnArtifact } from '../domain/turn.js';

/**
 * The storage port. The service sees only these shapes; it never imports a driver. Every method of
 * a `UnitOfWork` obtained from `transaction()` runs inside one database transaction.
 */
export interface Store {
  readonly dialect: 'sqlite' | 'postgres';
  /** Runs `fn` in one transaction, retrying transient lock/serialization failures. */
  transaction<T>(fn: (uow: UnitOfWork) => Promise<T>): Promise<T>;
  /** Non-transactional reads (and single-statement writes). */
  readonly read: UnitOfWork;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export interface UnitOfWork {
  readonly runs: RunRepository;
  readonly events: EventRepository;
  readonly artifacts: ArtifactRepository;
  readonly receipts: ReceiptRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly workers: WorkerRepository;
  readonly meta: MetaRepository;
}

export interface RunRepository {
  insert(run: RunRecord): Promise<void>;
  get(runId: string): Promise<RunRecord | undefined>;
  /** Compare-and-set: writes `next` only if the stored version is still `expectedVersion`. */
  compareAndSet(next: RunRecord, expectedVersion: number): Promise<boolean>;
  /** Runs with a claimed turn, for start-up recovery. */
  listWithActiveTurn(): Promise<RunRecord[]>;
}

export interface EventRepository {
  append(runId: string, version: number, firstSeq: number, events: readonly NewRunEvent[], at: number): Promise<void>;
  list(runId: string, afterSeq: number, limit: number): Promise<RunEvent[]>;
}

export interface StoredArtifact extends TurnArtifact {
  readonly runId: string;
  readonly turn: number;
  readonly createdAt: number;
}

export interface ArtifactRepository {
  insertMany(runId: string, turn: number, artifacts: readonly TurnArtifact[], at: number): Promise<void>;
  listByRun(runId: string): Promise<StoredArtifact[]>;
}

export const RECEIPT_STATES = ['processing', 'completed', 'outcome_unknown'] as const;
export type ReceiptState = (typeof RECEIPT_STATES)[number];

export interface ReceiptKey {
  readonly ownerHash: string;
  readonly operation: string;
  readonly keyHash: string;
}

export interface ReceiptRecord extends ReceiptKey {
  readonly fingerprint: string;
  readonly runId: string | null;
  readonly state: ReceiptState;
  readonly statusCode: number | null;
  readonly responseBody: string | null;
  readonly leaseExpiresAt: number | null;
  readonly workerId: string | null;
  readonly createdAt: number;
  readonly expiresAt: number;
}

export interface ReceiptRepository {
  get(key: ReceiptKey): Promise<ReceiptRecord | undefined>;
  /** Inserts unless a receipt under the key exists; returns whether this call inserted it. */
  insert(receipt: ReceiptRecord): Promise<boolean>;
  complete(key: ReceiptKey, statusCode: number, responseBody: string, runId: string | null): Promise<void>;
  markOutcomeUnknown(key: ReceiptKey): Promise<void>;
  delete(key: ReceiptKey): Promise<void>;
  /** Processing receipts of one run (the interrupted turn's reservation). */
  listProcessingForRun(runId: string): Promise<ReceiptRecord[]>;
  deleteExpired(now: number): Promise<number>;
}

export interface ApiKeyRecord {
  readonly keyId: string;
  readonly keyHash: string;
  readonly displayPrefix: string;
  readonly tenantId: string;
  readonly accountId: string;
  readonly scopes: readonly string[];
  readonly label: string | null;
  readonly createdAt: number;
  readonly revokedAt: number | null;
}

export interface ApiKeyRepository {
  insert(key: ApiKeyRecord): Promise<void>;
  findByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  list(): Promise<ApiKeyRecord[]>;
  /** Returns false when no key with that id exists. */
  revoke(keyId: string, at: number): Promise<boolean>;
}

export interface WorkerRecord {
  readonly workerId: string;
  readonly host: string;
  readonly pid: number;
  readonly startedAt: number;
  readonly heartbeatAt: number;
  readonly stoppedAt: number | null;
}

export interface WorkerRepository {
  upsert(worker: WorkerRecord): Promise<void>;
  heartbeat(workerId: string, at: number): Promise<void>;
  stop(workerId: string, at: number): Promise<void>;
  get(workerId: string): Promise<WorkerRecord | undefined>;
}

export interface MetaRepository {
  get(key: string): Promise<string | undefined>;
  /** Sets the value only if absent; returns the value now stored. */
  setIfAbsent(key: string, value: string): Promise<string>;
}
