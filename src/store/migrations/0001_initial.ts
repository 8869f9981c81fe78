import type { Kysely, Migration } from 'kysely';

/** The instance metadata (key/value). */
const createMeta = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('helix_meta')
    .addColumn('key', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
};

/** Runs, with their owner, statuses, turn lease and state; indexed by owner and by turn. */
const createRuns = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('helix_agent_runs')
    .addColumn('run_id', 'varchar(210)', (c) => c.primaryKey())
    .addColumn('owner_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('tenant_ref', 'varchar(100)', (c) => c.notNull())
    .addColumn('account_ref', 'varchar(100)', (c) => c.notNull())
    .addColumn('objective', 'text', (c) => c.notNull())
    .addColumn('objective_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('runtime_provider', 'varchar(100)', (c) => c.notNull())
    .addColumn('lifecycle_status', 'varchar(20)', (c) => c.notNull())
    .addColumn('completion_status', 'varchar(30)', (c) => c.notNull())
    .addColumn('terminal_authority_status', 'varchar(30)', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('steps_used', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('last_event_seq', 'integer', (c) => c.notNull())
    .addColumn('turn_id', 'varchar(64)')
    .addColumn('turn_worker_id', 'varchar(64)')
    .addColumn('turn_lease_expires_at', 'bigint')
    .addColumn('turn_started_at', 'bigint')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .addColumn('cancelled_at', 'bigint')
    .execute();
  await db.schema.createIndex('helix_agent_runs_owner').on('helix_agent_runs').column('owner_hash').execute();
  await db.schema.createIndex('helix_agent_runs_turn').on('helix_agent_runs').column('turn_id').execute();
};

/** Each run's ordered events. */
const createEvents = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('helix_agent_run_events')
    .addColumn('run_id', 'varchar(210)', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('kind', 'varchar(60)', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('helix_agent_run_events_pk', ['run_id', 'seq'])
    .execute();
};

/** Evidence and observations a run produced, by ref. */
const createArtifacts = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('helix_agent_run_artifacts')
    .addColumn('run_id', 'varchar(210)', (c) => c.notNull())
    .addColumn('ref', 'varchar(200)', (c) => c.notNull())
    .addColumn('turn', 'integer', (c) => c.notNull())
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('family', 'varchar(100)', (c) => c.notNull())
    .addColumn('capability_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('provenance', 'text', (c) => c.notNull())
    .addColumn('excerpt', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('helix_agent_run_artifacts_pk', ['run_id', 'ref'])
    .execute();
};

/** Idempotency receipts, per owner, operation and key; indexed for expiry and by run. */
const createIdempotencyReceipts = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('helix_idempotency_receipts')
    .addColumn('owner_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('operation', 'varchar(40)', (c) => c.notNull())
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
    .addColumn('run_id', 'varchar(210)')
    .addColumn('state', 'varchar(20)', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('lease_expires_at', 'bigint')
    .addColumn('worker_id', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('helix_idempotency_receipts_pk', ['owner_hash', 'operation', 'key_hash'])
    .execute();
  await db.schema
    .createIndex('helix_idempotency_receipts_expiry')
    .on('helix_idempotency_receipts')
    .column('expires_at')
    .execute();
  await db.schema
    .createIndex('helix_idempotency_receipts_run')
    .on('helix_idempotency_receipts')
    .columns(['run_id', 'state'])
    .execute();
};

/** `hlx_` API keys, stored as hashes. */
const createApiKeys = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('helix_api_keys')
    .addColumn('key_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('display_prefix', 'varchar(32)', (c) => c.notNull())
    .addColumn('tenant_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('account_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('label', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
};

/** Worker liveness (heartbeats). */
const createWorkers = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('helix_workers')
    .addColumn('worker_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('host', 'varchar(255)', (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('heartbeat_at', 'bigint', (c) => c.notNull())
    .addColumn('stopped_at', 'bigint')
    .execute();
};

/** Runs, events, artifacts, idempotency receipts, API keys, worker liveness, instance metadata. */
export const initial: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await createMeta(db);
    await createRuns(db);
    await createEvents(db);
    await createArtifacts(db);
    await createIdempotencyReceipts(db);
    await createApiKeys(db);
    await createWorkers(db);
  },
};
