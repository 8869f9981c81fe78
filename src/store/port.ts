import type { RunEvent, NewRunEvent } from '../domain/events.js';
import type { RunRecord } from '../domain/run.js';
import type { LifecycleStatus } from '../domain/statuses.js';
import type { TurnArtifact } from '../domain/turn.js';
import type { SealedSecret } from '../domain/sealedSecret.js';
import type { AgentExecutorRepository } from './agentExecutorPort.js';
import type { ChatRepository } from './chatPort.js';
import type { RoomRepository } from './roomPort.js';
import type { EmbodimentRepository } from './embodimentPort.js';
import type { RoomIngressRepository } from './roomIngressPort.js';
import type { RoomSourceRepository } from './roomSourcePort.js';
import type { RuntimeApprovalLedger } from './runtimeApprovalPort.js';

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
  /**
   * Called after a committed change a verified credential depends on (a key revoked, an account
   * created or its status changed, a subject erased) made through this store; returns the unsubscribe.
   * Other processes' changes arrive on PostgreSQL's `helix_credentials` channel instead.
   */
  onCredentialsChanged(listener: () => void): () => void;
  /**
   * A number that changes whenever another connection has committed to the database since the
   * last call: SQLite's `data_version` (another process on the file, such as the CLI revoking a
   * key). Constant on PostgreSQL, where other processes announce credential changes over NOTIFY.
   */
  writesElsewhere(): Promise<number>;
  migrate(): Promise<void>;
  /**
   * After an erase: SQLite checkpoints and truncates its write-ahead log, so no older page image of
   * an erased row stays on disk (deleted content itself is zeroed: `secure_delete`). PostgreSQL: a
   * no-op; dead tuples and WAL segments are recycled by the server (docs/production.md).
   */
  truncateLog(): Promise<void>;
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
  readonly library: LibraryRepository;
  readonly accounts: AccountRepository;
  readonly bindings: BindingRepository;
  readonly sessions: SessionRepository;
  readonly modelProviders: ModelProviderRepository;
  readonly subjects: SubjectRepository;
  /** Shared Live Room (src/store/roomPort.ts). */
  readonly rooms: RoomRepository;
  /** Room sources, credential deliveries and adapter admissions (src/store/roomSourcePort.ts). */
  readonly roomSources: RoomSourceRepository;
  /** The source ingress lane: request ledger, status, observations, probes (src/store/roomIngressPort.ts). */
  readonly roomIngress: RoomIngressRepository;
  /** The runtime approval replay ledger (src/store/runtimeApprovalPort.ts, D-06). */
  readonly runtimeApprovals: RuntimeApprovalLedger;
  /** Subjects, leases, workflows, actions and controls (src/store/embodimentPort.ts). */
  readonly embodiment: EmbodimentRepository;
  /** The console's chats and the observer lane (src/store/chatPort.ts). */
  readonly chats: ChatRepository;
  /** ATP-31: the credentials that executed agent work in a run (src/store/agentExecutorPort.ts). */
  readonly agentExecutors: AgentExecutorRepository;
}

export interface RunRepository {
  insert(run: RunRecord): Promise<void>;
  get(runId: string): Promise<RunRecord | undefined>;
  /** Compare-and-set: writes `next` only if the stored version is still `expectedVersion`. */
  compareAndSet(next: RunRecord, expectedVersion: number): Promise<boolean>;
  /** Runs with a claimed turn, for start-up recovery. */
  listWithActiveTurn(): Promise<RunRecord[]>;
  /** One page of the given owners' runs, newest first (src/store/kysely/runListQuery.ts). */
  listForOwners(query: RunListQuery): Promise<RunRecord[]>;
}

/** Where a page of runs starts: strictly after this run in newest-first order (keyset pagination). */
export interface RunListPosition {
  readonly createdAt: number;
  readonly runId: string;
}

export interface RunListQuery {
  /** The owners whose runs are listed; none lists nothing. */
  readonly ownerHashes: readonly string[];
  readonly lifecycle?: LifecycleStatus;
  /** A substring of the objective, matched without regard to ASCII case. */
  readonly text?: string;
  /** Created at or after (ms). */
  readonly createdFrom?: number;
  /** Created before (ms). */
  readonly createdBefore?: number;
  readonly after?: RunListPosition;
  readonly limit: number;
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
  /** Records artifacts a turn retrieved, as it retrieves them; a ref already recorded is kept as it was. */
  recordRetrieved(runId: string, turn: number, artifacts: readonly TurnArtifact[], at: number): Promise<void>;
  /** Marks the turn's admitted artifacts (recording any not yet recorded). */
  admit(runId: string, turn: number, artifacts: readonly TurnArtifact[], at: number): Promise<void>;
  /** Admitted artifacts only: what the evidence bundle shows. */
  listAdmitted(runId: string): Promise<StoredArtifact[]>;
  /** Every recorded artifact with its status, for audit. */
  listRecorded(runId: string): Promise<(StoredArtifact & { readonly status: 'retrieved' | 'admitted' })[]>;
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
  /** Every key bound to the account, revoked ones included. */
  listForAccount(accountId: string): Promise<ApiKeyRecord[]>;
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

export interface LibraryDocumentRecord {
  readonly docId: string;
  /** Absolute path the document was read from; its identity for re-adds. */
  readonly origin: string;
  /** How the document is named to people (relative to where it was added from). */
  readonly displayPath: string;
  readonly title: string;
  readonly mediaType: string;
  readonly sha256: string;
  readonly bytes: number;
  readonly passageCount: number;
  readonly addedAt: number;
  readonly updatedAt: number;
}

export interface LibraryPassageRecord {
  readonly passageId: string;
  readonly docId: string;
  readonly ordinal: number;
  readonly heading: string | null;
  readonly page: number | null;
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

export interface LibrarySearchHit {
  readonly passage: LibraryPassageRecord;
  readonly document: Pick<LibraryDocumentRecord, 'docId' | 'title' | 'displayPath'>;
  /** Engine relevance (bm25 or ts_rank), larger is better; comparable within one search only. */
  readonly score: number;
}

/** What a library search asks for: content words, any of which may match, and identifiers matched as exact phrases. */
export interface LibraryQuery {
  readonly terms: readonly string[];
  /** Identifiers as written (`gc.auto`, `--depth`): a passage matches only with the whole name. */
  readonly phrases: readonly string[];
}

export interface LibraryRepository {
  findByOrigin(origin: string): Promise<LibraryDocumentRecord | undefined>;
  getDocument(docId: string): Promise<LibraryDocumentRecord | undefined>;
  /** Replaces the document and all its passages (and their index entries); call inside a transaction. */
  replaceDocument(document: LibraryDocumentRecord, passages: readonly LibraryPassageRecord[]): Promise<void>;
  list(): Promise<LibraryDocumentRecord[]>;
  remove(docId: string): Promise<boolean>;
  passages(docId: string, fromOrdinal: number, toOrdinal: number): Promise<LibraryPassageRecord[]>;
  /** Ranked full-text search: any term or phrase may match; better matches first. */
  search(query: LibraryQuery, limit: number): Promise<LibrarySearchHit[]>;
  countPassages(): Promise<number>;
  /**
   * In how many passages each word occurs, as the search engine tokenizes and stems it (for the
   * answer contract's focus weights). A word the engine cannot look up (a stopword of its
   * dictionary, no letters or digits) is absent from the map.
   */
  termFrequencies(words: readonly string[]): Promise<ReadonlyMap<string, number>>;

  // Optional passage embeddings (hybrid search, docs/solver.md); empty when none are configured.
  /** Stores (or replaces) passages' embeddings made by `model`; the vectors are L2-normalized on the way in. */
  putEmbeddings(model: string, embeddings: readonly LibraryEmbedding[]): Promise<void>;
  /** Passages with no embedding by `model` (none yet, or one by another model), in document order. */
  unembedded(model: string, limit: number): Promise<LibraryPassageRef[]>;
  countUnembedded(model: string): Promise<number>;
  /** The passages whose `model` embeddings are nearest `vector`; score is the cosine similarity. */
  nearest(vector: readonly number[], model: string, limit: number): Promise<LibrarySearchHit[]>;
}

/** The embedding methods (src/store/kysely/libraryEmbeddingRepository.ts implements them). */
export type LibraryEmbeddingMethods = Pick<
  LibraryRepository,
  'putEmbeddings' | 'unembedded' | 'countUnembedded' | 'nearest'
>;

export interface LibraryEmbedding {
  readonly passageId: string;
  readonly vector: readonly number[];
}

/** A passage with the document it belongs to, unranked. */
export type LibraryPassageRef = Omit<LibrarySearchHit, 'score'>;

export const ACCOUNT_STATUSES = ['active', 'disabled'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

export interface AccountRecord {
  readonly accountId: string;
  readonly displayName: string;
  readonly status: AccountStatus;
  /** scrypt hash (`scrypt$N$r$p$salt$hash`), or null when password sign-in is off. */
  readonly passwordHash: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface AccountRepository {
  insert(account: AccountRecord): Promise<void>;
  get(accountId: string): Promise<AccountRecord | undefined>;
  list(): Promise<AccountRecord[]>;
  setPassword(accountId: string, passwordHash: string | null, at: number): Promise<boolean>;
  setStatus(accountId: string, status: AccountStatus, at: number): Promise<boolean>;
  /** The stored policy overrides (JSON text), or undefined when the account follows the default. */
  getPolicyOverrides(accountId: string): Promise<string | undefined>;
  /** Stores the overrides; returns false when no such account exists. */
  setPolicyOverrides(accountId: string, overrides: string, at: number): Promise<boolean>;
  /** Links (provider, subject) to an account; an existing link to another account is an error. */
  linkProvider(
    provider: string,
    subjectHash: string,
    accountId: string,
    at: number,
  ): Promise<'linked' | 'already_linked' | 'linked_elsewhere'>;
  findLinkedAccount(provider: string, subjectHash: string): Promise<AccountRecord | undefined>;
}

export const BINDING_STATUSES = ['active', 'revoked'] as const;
export type BindingStatus = (typeof BINDING_STATUSES)[number];

export interface BindingRecord {
  readonly bindingRef: string;
  readonly accountId: string;
  readonly issuer: string;
  readonly tenantHash: string;
  readonly provider: string;
  readonly subjectHash: string;
  readonly status: BindingStatus;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly revokedAt: number | null;
}

export interface BindingIdentity {
  readonly issuer: string;
  readonly tenantHash: string;
  readonly provider: string;
  readonly subjectHash: string;
}

export interface BindingRepository {
  insert(binding: BindingRecord): Promise<void>;
  findActive(identity: BindingIdentity): Promise<BindingRecord | undefined>;
  listForAccount(accountId: string): Promise<BindingRecord[]>;
  /** Revokes the account's binding; `not_found` for a ref owned by another account. */
  revoke(accountId: string, bindingRef: string, at: number): Promise<'revoked' | 'already_revoked' | 'not_found'>;
}

export const ONE_TIME_PURPOSES = ['link_intent', 'sign_in'] as const;
export type OneTimePurpose = (typeof ONE_TIME_PURPOSES)[number];

export interface SessionRecord {
  readonly sessionHash: string;
  readonly accountId: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly revokedAt: number | null;
}

export interface SessionRepository {
  insert(session: SessionRecord): Promise<void>;
  get(sessionHash: string): Promise<SessionRecord | undefined>;
  revoke(sessionHash: string, at: number): Promise<void>;
  issueOneTime(
    tokenHash: string,
    purpose: OneTimePurpose,
    accountId: string,
    at: number,
    expiresAt: number,
  ): Promise<void>;
  /** Consumes an unexpired, unconsumed token of that purpose exactly once; returns its account. */
  consumeOneTime(tokenHash: string, purpose: OneTimePurpose, at: number): Promise<string | undefined>;
  /** The account of an unexpired, unconsumed token of that purpose, leaving it unconsumed. */
  findOneTime(tokenHash: string, purpose: OneTimePurpose, at: number): Promise<string | undefined>;
  /** Revokes every live session of the account and consumes its unused one-time tokens, for good. */
  revokeAllForAccount(accountId: string, at: number): Promise<void>;
}

/** An owner's model provider registration; the API key exists only sealed (src/providers/secretBox.ts). */
export interface ModelProviderRecord {
  readonly providerId: string;
  readonly ownerHash: string;
  readonly kind: string;
  readonly baseUrl: string;
  readonly model: string;
  readonly reasoningEffort: string | null;
  readonly label: string | null;
  /** Null for a keyless local server. */
  readonly secret: SealedSecret | null;
  readonly createdAt: number;
}

/** Every read and delete is scoped to an owner: another owner's registration does not exist here. */
export interface ModelProviderRepository {
  insert(provider: ModelProviderRecord): Promise<void>;
  /** Newest first: the order in which they would be chosen. */
  listByOwner(ownerHash: string): Promise<ModelProviderRecord[]>;
  getForOwner(ownerHash: string, providerId: string): Promise<ModelProviderRecord | undefined>;
  /** Returns false when the owner has no registration with that id. */
  deleteForOwner(ownerHash: string, providerId: string): Promise<boolean>;
  /** The registration a run of this owner uses. */
  newestForOwner(ownerHash: string): Promise<ModelProviderRecord | undefined>;
}

/** A data subject as the store finds its rows: by account id, and by every owner hash attributed to it. */
export interface SubjectScope {
  readonly accountId: string;
  readonly ownerHashes: readonly string[];
}

/** Rows per record kind (`runs`, `run_events`, …; src/store/kysely/subjectRecords.ts). */
export type SubjectCounts = Readonly<Record<string, number>>;
/** Exported rows per record kind: allow-listed columns only, instants as ISO strings, JSON parsed. */
export type SubjectRecords = Readonly<Record<string, readonly Readonly<Record<string, unknown>>[]>>;

export interface ErasureRecord {
  readonly erasureId: string;
  readonly subjectKey: string;
  readonly requestedBy: string;
  readonly idempotencyKeyHash: string;
  readonly records: SubjectCounts;
  readonly erasedAt: number;
}

export interface SubjectRepository {
  /**
   * Registers an owner under its data subject. An upsert rather than "do nothing", so it locks the
   * row until commit: an erase that claims the subject's owners first then either waits for this
   * write and erases it, or erases first and this write registers the owner again.
   */
  registerOwner(ownerHash: string, subjectKey: string, at: number): Promise<void>;
  registeredOwners(subjectKey: string): Promise<string[]>;
  /** Deletes and returns the subject's registrations: an erase's first step, which takes their locks. */
  releaseOwners(subjectKey: string): Promise<string[]>;
  /** Runs of these owners whose turn is still within its lease. */
  countTurnsInProgress(ownerHashes: readonly string[], now: number): Promise<number>;
  count(scope: SubjectScope): Promise<SubjectCounts>;
  exportRecords(scope: SubjectScope): Promise<SubjectRecords>;
  /** Deletes every row of the subject, record kind by record kind; call inside a transaction. */
  erase(scope: SubjectScope): Promise<SubjectCounts>;
  recordErasure(erasure: ErasureRecord): Promise<void>;
  findErasure(requestedBy: string, idempotencyKeyHash: string): Promise<ErasureRecord | undefined>;
  latestErasure(subjectKey: string): Promise<ErasureRecord | undefined>;
}
