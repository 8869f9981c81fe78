/**
 * The floor's storage: the same SQLite schema, pragmas and transactions Helix commits for a start
 * and for a continue, and the same reads it runs for an inspect (the run row) and an events page
 * (the run row, then the events after a seq), written as raw prepared better-sqlite3 statements with no repository,
 * query builder, validation or projection layer in between. Row and response sizes are kept close
 * to Helix's (a ~550-character state blob, ~1.5 KB receipt bodies) so both pay the same I/O.
 */
import Database from 'better-sqlite3';
import {
  FLOOR_STEPS_PER_RUN,
  floorState,
  fromRow,
  RUN_TTL_MS,
  type FloorRun,
  type FloorState,
  type RunRow,
} from './floorRun.js';

const RECEIPT_TTL_MS = 24 * 3600 * 1000;
const TURN_LEASE_MS = 150_000;
const WORKER_ID = 'wkr_floor';

/** The same pragmas as src/store/dialects/sqlite.ts, so every commit pays the same fsync. */
export const openFloorDatabase = (path: string): Database.Database => {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  return db;
};

export interface Owner {
  readonly ownerHash: string;
  readonly tenantRef: string;
  readonly accountRef: string;
}

/** A receipt's primary key: who, which operation, which Idempotency-Key (hashed). */
export interface ReceiptKey {
  readonly ownerHash: string;
  readonly operation: string;
  readonly keyHash: string;
}

/** Serializes a run (its columns and its decoded state) as the response body; it is stored in the receipt, as Helix does. */
export type RenderRun = (run: FloorRun, state: FloorState) => string;

/** One row of `helix_agent_run_events`. */
export interface EventRow {
  readonly run_id: string;
  readonly seq: number;
  readonly kind: string;
  readonly version: number;
  readonly data: string;
  readonly created_at: number;
}

export type ClaimOutcome =
  | { readonly kind: 'claimed'; readonly run: FloorRun }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'conflict' };

export interface NewRun {
  readonly runId: string;
  readonly owner: Owner;
  readonly objective: string;
  readonly objectiveHash: string;
  readonly receipt: ReceiptKey;
  readonly fingerprint: string;
  readonly now: number;
}

export interface TurnClaim {
  readonly runId: string;
  readonly turnId: string;
  readonly expectedVersion: number;
  readonly receipt: ReceiptKey;
  readonly fingerprint: string;
  readonly now: number;
}

export interface TurnResult {
  readonly claimed: FloorRun;
  readonly receipt: ReceiptKey;
  readonly now: number;
}

/**
 * Each write is one SQLite transaction and the two that answer a request return the response body;
 * each read is one statement, as Helix's non-transactional `store.read` reads are.
 */
export interface FloorStore {
  startRun(input: NewRun, render: RenderRun): string;
  claimTurn(input: TurnClaim): ClaimOutcome;
  finalizeTurn(input: TurnResult, render: RenderRun): string;
  /** The run's row if it exists and belongs to the owner. */
  ownedRun(runId: string, ownerHash: string): RunRow | undefined;
  /** Up to `limit` events after `afterSeq`, in order. */
  events(runId: string, afterSeq: number, limit: number): EventRow[];
}

export const floorStore = (db: Database.Database): FloorStore => {
  const insertRun = db.prepare(`
    insert into helix_agent_runs (run_id, owner_hash, tenant_ref, account_ref, objective, objective_hash, runtime_provider,
      lifecycle_status, completion_status, terminal_authority_status, version, steps_used, expires_at, last_event_seq,
      turn_id, turn_worker_id, turn_lease_expires_at, turn_started_at, state, created_at, updated_at, completed_at, cancelled_at)
    values (@run_id, @owner_hash, @tenant_ref, @account_ref, @objective, @objective_hash, 'helix.no_evidence',
      'waiting', 'needs_more_evidence', 'not_evaluated', 1, 0, @expires_at, 1,
      null, null, null, null, @state, @now, @now, null, null)`);
  const selectRun = db.prepare('select * from helix_agent_runs where run_id = ?');
  const selectOwnedRun = db.prepare('select * from helix_agent_runs where run_id = ? and owner_hash = ?');
  const selectEvents = db.prepare(
    'select * from helix_agent_run_events where run_id = ? and seq > ? order by seq limit ?',
  );
  // Compare-and-set on the version, like Helix's runs.compareAndSet.
  const updateRun = db.prepare(`
    update helix_agent_runs set version = @version, lifecycle_status = @lifecycle, completion_status = @completion,
      steps_used = @steps_used, last_event_seq = @last_event_seq, turn_id = @turn_id, turn_worker_id = @turn_worker_id,
      turn_lease_expires_at = @turn_lease_expires_at, turn_started_at = @turn_started_at, state = @state,
      updated_at = @now, completed_at = @completed_at
    where run_id = @run_id and version = @expected_version`);
  const insertEvent = db.prepare(
    'insert into helix_agent_run_events (run_id, seq, kind, version, data, created_at) values (?, ?, ?, ?, ?, ?)',
  );
  const insertReceipt = db.prepare(`
    insert into helix_idempotency_receipts (owner_hash, operation, key_hash, fingerprint, run_id, state, status_code,
      response_body, lease_expires_at, worker_id, created_at, expires_at)
    values (@owner_hash, @operation, @key_hash, @fingerprint, @run_id, @state, @status_code,
      @response_body, @lease_expires_at, @worker_id, @now, @expires_at)`);
  const completeReceipt = db.prepare(`
    update helix_idempotency_receipts set state = 'completed', status_code = @status_code, response_body = @response_body,
      lease_expires_at = null
    where owner_hash = @owner_hash and operation = @operation and key_hash = @key_hash`);
  const receiptColumns = (key: ReceiptKey) => ({
    owner_hash: key.ownerHash,
    operation: key.operation,
    key_hash: key.keyHash,
  });

  const changeRun = (
    before: FloorRun,
    next: FloorRun,
    state: FloorState,
    turn: { id: string; leaseExpiresAt: number; startedAt: number } | null,
    now: number,
  ) => {
    const result = updateRun.run({
      run_id: before.runId,
      expected_version: before.version,
      version: next.version,
      lifecycle: next.lifecycle,
      completion: next.completion,
      steps_used: next.stepsUsed,
      last_event_seq: next.lastEventSeq,
      turn_id: turn?.id ?? null,
      turn_worker_id: turn === null ? null : WORKER_ID,
      turn_lease_expires_at: turn?.leaseExpiresAt ?? null,
      turn_started_at: turn?.startedAt ?? null,
      state: JSON.stringify(state),
      now,
      completed_at: next.completedAt,
    });
    if (result.changes !== 1) throw new Error(`floor: run ${before.runId} moved under a compare-and-set`);
  };

  // One transaction: run row, its first event, and the completed receipt holding the response.
  // Helix reserves the receipt first and completes it at the end of the same transaction; the
  // floor writes it once, so that extra UPDATE counts as Helix's cost.
  const start = db.transaction((input: NewRun, render: RenderRun): string => {
    const { runId, owner, now } = input;
    const run: FloorRun = {
      runId,
      objective: input.objective,
      objectiveHash: input.objectiveHash,
      version: 1,
      stepsUsed: 0,
      lastEventSeq: 1,
      lifecycle: 'waiting',
      completion: 'needs_more_evidence',
      turnId: null,
      expiresAt: now + RUN_TTL_MS,
      createdAt: now,
      updatedAt: now,
      completedAt: null,
    };
    const state = floorState(0);
    insertRun.run({
      run_id: runId,
      owner_hash: owner.ownerHash,
      tenant_ref: owner.tenantRef,
      account_ref: owner.accountRef,
      objective: run.objective,
      objective_hash: run.objectiveHash,
      expires_at: run.expiresAt,
      state: JSON.stringify(state),
      now,
    });
    const started = {
      objective_hash: run.objectiveHash,
      database_scope: [],
      budget: { max_steps: FLOOR_STEPS_PER_RUN, expires_in_seconds: RUN_TTL_MS / 1000 },
    };
    insertEvent.run(runId, 1, 'run.started', 1, JSON.stringify(started), now);
    const body = render(run, state);
    insertReceipt.run({
      ...receiptColumns(input.receipt),
      fingerprint: input.fingerprint,
      run_id: runId,
      state: 'completed',
      status_code: 201,
      response_body: body,
      lease_expires_at: null,
      worker_id: null,
      now,
      expires_at: now + RECEIPT_TTL_MS,
    });
    return body;
  });

  // Helix's claim: reserve the key with a processing lease, check the run, CAS v -> v+1, one event.
  const claim = db.transaction((input: TurnClaim): ClaimOutcome => {
    const { now } = input;
    const row = selectRun.get(input.runId) as RunRow | undefined;
    if (row === undefined) return { kind: 'not_found' };
    const run = fromRow(row);
    if (run.version !== input.expectedVersion || run.turnId !== null || run.stepsUsed >= FLOOR_STEPS_PER_RUN)
      return { kind: 'conflict' };
    insertReceipt.run({
      ...receiptColumns(input.receipt),
      fingerprint: input.fingerprint,
      run_id: run.runId,
      state: 'processing',
      status_code: null,
      response_body: null,
      lease_expires_at: now + TURN_LEASE_MS,
      worker_id: WORKER_ID,
      now,
      expires_at: now + RECEIPT_TTL_MS,
    });
    const claimed: FloorRun = {
      ...run,
      version: run.version + 1,
      stepsUsed: run.stepsUsed + 1,
      lastEventSeq: run.lastEventSeq + 1,
      lifecycle: 'running',
      turnId: input.turnId,
      updatedAt: now,
    };
    changeRun(
      run,
      claimed,
      floorState(claimed.stepsUsed),
      { id: input.turnId, leaseExpiresAt: now + TURN_LEASE_MS, startedAt: now },
      now,
    );
    const received = { turn: claimed.stepsUsed, has_instruction: true, answered_question_ids: [] };
    insertEvent.run(
      run.runId,
      claimed.lastEventSeq,
      'run.continuation_received',
      claimed.version,
      JSON.stringify(received),
      now,
    );
    return { kind: 'claimed', run: claimed };
  });

  // Helix's finalize: re-read, CAS v+1 -> v+2, the three verdict events, complete the receipt.
  const finalize = db.transaction((input: TurnResult, render: RenderRun): string => {
    const { claimed, now } = input;
    const row = selectRun.get(claimed.runId) as RunRow | undefined;
    if (row === undefined || row.version !== claimed.version || row.turn_id !== claimed.turnId) {
      throw new Error(`floor: run ${claimed.runId} moved during its turn`);
    }
    const before = fromRow(row);
    const exhausted = before.stepsUsed >= FLOOR_STEPS_PER_RUN;
    const turn = before.stepsUsed;
    const events: [string, unknown][] = [
      ['run.evidence_reentered', { turn, admitted_refs: [], rejected_refs: [] }],
      ['run.terminal_authority_evaluated', { turn, status: 'not_evaluated', reason: 'no_candidate' }],
      exhausted
        ? ['run.budget_exhausted', { turn }]
        : ['run.waiting', { turn, completion_status: 'needs_more_evidence' }],
    ];
    const next: FloorRun = {
      ...before,
      version: before.version + 1,
      lastEventSeq: before.lastEventSeq + events.length,
      lifecycle: exhausted ? 'failed' : 'waiting',
      completion: exhausted ? 'budget_exhausted' : 'needs_more_evidence',
      turnId: null,
      updatedAt: now,
      completedAt: exhausted ? now : null,
    };
    const state = floorState(next.stepsUsed);
    changeRun(before, next, state, null, now);
    events.forEach(([kind, data], index) => {
      insertEvent.run(before.runId, before.lastEventSeq + 1 + index, kind, next.version, JSON.stringify(data), now);
    });
    const body = render(next, state);
    completeReceipt.run({ ...receiptColumns(input.receipt), status_code: 200, response_body: body });
    return body;
  });

  // BEGIN IMMEDIATE, as Helix's KyselyStore does for SQLite.
  return {
    startRun: (input, render) => start.immediate(input, render),
    claimTurn: (input) => claim.immediate(input),
    finalizeTurn: (input, render) => finalize.immediate(input, render),
    ownedRun: (runId, ownerHash) => selectOwnedRun.get(runId, ownerHash) as RunRow | undefined,
    events: (runId, afterSeq, limit) => selectEvents.all(runId, afterSeq, limit) as EventRow[],
  };
};
