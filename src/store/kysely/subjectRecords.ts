import type { HelixDatabase } from '../schema.js';

/**
 * How a table's rows are found for a data subject: its account id, one of the owner hashes
 * attributed to it, or the run id of one of those owners' runs.
 */
export const SUBJECT_MATCHES = ['account', 'owner', 'run'] as const;
export type SubjectMatch = (typeof SUBJECT_MATCHES)[number];

type Column<T extends keyof HelixDatabase> = keyof HelixDatabase[T] & string;

/** One table that holds a subject's rows. Column names are checked against the row type. */
export type SubjectTable = {
  [T in keyof HelixDatabase]: {
    /** The record kind: its key in counts, exports and erasure receipts. Permanent once shipped. */
    readonly kind: string;
    readonly table: T;
    /** The column `match` compares. */
    readonly column: Column<T>;
    readonly match: SubjectMatch;
    /** What the export shows: an allow-list, so a secret column added later is never exported by default. */
    readonly exported: readonly Column<T>[];
    /** Exported columns holding JSON text, shown parsed. Columns ending in `_at` are shown as ISO instants. */
    readonly json?: readonly Column<T>[];
    /** A total order, so an export is byte-for-byte repeatable. */
    readonly orderBy: readonly Column<T>[];
    /**
     * What erase does to a matched row: `delete` it (the default: the row is the subject's), or
     * `clear` the matched column to NULL where the row is another subject's and only refers to
     * this one (another owner's invite this account used).
     */
    readonly erasure?: 'delete' | 'clear';
  };
}[keyof HelixDatabase];

/**
 * EVERY TABLE THAT HOLDS A SUBJECT'S ROWS IS LISTED HERE, ONE ENTRY EACH; nothing else decides
 * what `subject.read` counts, `subject.export` shows and `subject.erase` deletes. Parents come
 * before the rows that reference them; the erase runs this list bottom-up, so a row goes before
 * its parent (foreign keys to helix_accounts; run ids looked up while the runs still exist).
 *
 * A new table keyed by account (account policies, rooms) is one entry after `account`. A table
 * holding no subject data goes in SUBJECT_FREE_TABLES instead; subjectRecords.test.ts fails until
 * every table is in one of the two lists.
 *
 * Never exported: credential hashes and verifiers (API-key, session and one-time-token hashes,
 * password hashes, idempotency-key hashes and fingerprints), sealed provider keys, owner hashes.
 */
export const SUBJECT_TABLES: readonly SubjectTable[] = [
  {
    kind: 'account',
    table: 'helix_accounts',
    column: 'account_id',
    match: 'account',
    exported: ['account_id', 'display_name', 'status', 'created_at', 'updated_at'],
    orderBy: ['account_id'],
  },
  {
    kind: 'account_policy',
    table: 'helix_account_policies',
    column: 'account_id',
    match: 'account',
    exported: ['account_id', 'overrides', 'updated_at'],
    json: ['overrides'],
    orderBy: ['account_id'],
  },
  {
    kind: 'api_keys',
    table: 'helix_api_keys',
    column: 'account_id',
    match: 'account',
    exported: ['key_id', 'display_prefix', 'tenant_id', 'account_id', 'scopes', 'label', 'created_at', 'revoked_at'],
    json: ['scopes'],
    orderBy: ['created_at', 'key_id'],
  },
  {
    kind: 'agent_bindings',
    table: 'helix_agent_account_bindings',
    column: 'account_id',
    match: 'account',
    exported: [
      'binding_ref',
      'account_id',
      'issuer',
      'tenant_hash',
      'provider',
      'subject_hash',
      'status',
      'created_at',
      'updated_at',
      'revoked_at',
    ],
    orderBy: ['created_at', 'binding_ref'],
  },
  {
    kind: 'linked_providers',
    table: 'helix_account_linked_providers',
    column: 'account_id',
    match: 'account',
    exported: ['provider', 'subject_hash', 'account_id', 'created_at'],
    orderBy: ['created_at', 'provider', 'subject_hash'],
  },
  {
    kind: 'sessions',
    table: 'helix_sessions',
    column: 'account_id',
    match: 'account',
    exported: ['account_id', 'created_at', 'expires_at', 'revoked_at'],
    orderBy: ['created_at', 'session_hash'],
  },
  {
    kind: 'one_time_tokens',
    table: 'helix_one_time_tokens',
    column: 'account_id',
    match: 'account',
    exported: ['purpose', 'account_id', 'created_at', 'expires_at', 'consumed_at'],
    orderBy: ['created_at', 'token_hash'],
  },
  {
    kind: 'runs',
    table: 'helix_agent_runs',
    column: 'owner_hash',
    match: 'owner',
    exported: [
      'run_id',
      'tenant_ref',
      'account_ref',
      'objective',
      'runtime_provider',
      'lifecycle_status',
      'completion_status',
      'terminal_authority_status',
      'version',
      'steps_used',
      'state',
      'expires_at',
      'created_at',
      'updated_at',
      'completed_at',
      'cancelled_at',
    ],
    json: ['state'],
    orderBy: ['created_at', 'run_id'],
  },
  {
    kind: 'run_events',
    table: 'helix_agent_run_events',
    column: 'run_id',
    match: 'run',
    exported: ['run_id', 'seq', 'kind', 'version', 'data', 'created_at'],
    json: ['data'],
    orderBy: ['run_id', 'seq'],
  },
  {
    kind: 'run_artifacts',
    table: 'helix_agent_run_artifacts',
    column: 'run_id',
    match: 'run',
    exported: [
      'run_id',
      'ref',
      'turn',
      'status',
      'kind',
      'family',
      'capability_id',
      'sha256',
      'title',
      'excerpt',
      'provenance',
      'created_at',
    ],
    json: ['provenance'],
    orderBy: ['run_id', 'turn', 'ref'],
  },
  // ATP-31: which credentials executed agent work in the run; the credential hash is never exported.
  {
    kind: 'run_agent_executors',
    table: 'helix_run_agent_executors',
    column: 'run_id',
    match: 'run',
    exported: ['run_id', 'recorded_at'],
    orderBy: ['run_id', 'recorded_at', 'executor_hash'],
  },
  {
    kind: 'idempotency_receipts',
    table: 'helix_idempotency_receipts',
    column: 'owner_hash',
    match: 'owner',
    exported: ['operation', 'run_id', 'state', 'status_code', 'created_at', 'expires_at'],
    orderBy: ['created_at', 'operation', 'key_hash'],
  },
  {
    kind: 'model_providers',
    table: 'helix_model_providers',
    column: 'owner_hash',
    match: 'owner',
    exported: ['provider_id', 'kind', 'base_url', 'model', 'reasoning_effort', 'label', 'created_at'],
    orderBy: ['created_at', 'provider_id'],
  },
  // Shared Live Room (docs/rooms.md): the rooms an account created, its memberships, the consent
  // versions and invites it issued, and its owners' bindings. Invite token hashes are never exported.
  {
    kind: 'rooms',
    table: 'helix_rooms',
    column: 'owner_account_id',
    match: 'account',
    exported: ['room_id', 'title', 'status', 'owner_account_id', 'consent_version', 'created_at', 'updated_at'],
    orderBy: ['created_at', 'room_id'],
  },
  {
    kind: 'room_memberships',
    table: 'helix_room_members',
    column: 'account_id',
    match: 'account',
    exported: [
      'room_id',
      'account_id',
      'role',
      'accepted_consent_version',
      'consent_receipt_ref',
      'joined_at',
      'removed_at',
    ],
    orderBy: ['joined_at', 'room_id'],
  },
  {
    kind: 'room_consent_versions',
    table: 'helix_room_consent_versions',
    column: 'published_by',
    match: 'account',
    exported: ['room_id', 'version', 'text', 'published_at', 'published_by'],
    orderBy: ['published_at', 'room_id', 'version'],
  },
  {
    kind: 'room_invites',
    table: 'helix_room_invites',
    column: 'created_by',
    match: 'account',
    exported: [
      'invite_ref',
      'room_id',
      'role',
      'created_by',
      'created_at',
      'expires_at',
      'used_at',
      'used_by',
      'revoked_at',
    ],
    orderBy: ['created_at', 'token_hash'],
  },
  // Another owner's invite the subject used: the row is the inviter's, so erase only clears
  // `used_by` (it stays used, so still single-use); the export leaves out who issued it.
  {
    kind: 'room_invites_used',
    table: 'helix_room_invites',
    column: 'used_by',
    match: 'account',
    exported: ['room_id', 'role', 'used_at', 'used_by'],
    orderBy: ['used_at', 'token_hash'],
    erasure: 'clear',
  },
  {
    kind: 'room_run_bindings',
    table: 'helix_room_run_bindings',
    column: 'owner_hash',
    match: 'owner',
    exported: [
      'binding_ref',
      'run_id',
      'room_id',
      'account_id',
      'role',
      'consent_version',
      'consent_receipt_ref',
      'status',
      'created_at',
      'revoked_at',
    ],
    orderBy: ['created_at', 'binding_ref'],
  },
  {
    kind: 'room_chat_bindings',
    table: 'helix_room_chat_bindings',
    column: 'owner_hash',
    match: 'owner',
    exported: ['binding_ref', 'run_id', 'chat_session_id', 'status', 'created_at', 'revoked_at'],
    orderBy: ['created_at', 'binding_ref'],
  },
  // The console's chats (docs/console.md): by account. Claim-handle hashes are never exported.
  {
    kind: 'chats',
    table: 'helix_chat_sessions',
    column: 'account_id',
    match: 'account',
    exported: ['chat_id', 'title', 'created_at', 'updated_at'],
    orderBy: ['created_at', 'chat_id'],
  },
  {
    kind: 'chat_messages',
    table: 'helix_chat_messages',
    column: 'account_id',
    match: 'account',
    exported: ['message_id', 'chat_id', 'role', 'content', 'created_at'],
    orderBy: ['created_at', 'message_id'],
  },
  {
    kind: 'chat_observer_bindings',
    table: 'helix_chat_observer_bindings',
    column: 'account_id',
    match: 'account',
    exported: [
      'binding_ref',
      'chat_id',
      'status',
      'expires_at',
      'snapshot_ref',
      'snapshot_json',
      'snapshot_chars',
      'run_id',
      'run_chat_binding_ref',
      'created_at',
      'claimed_at',
      'revoked_at',
    ],
    json: ['snapshot_json'],
    orderBy: ['created_at', 'binding_ref'],
  },
  // Room sources (docs/rooms.md "Sources and credential delivery"): by the source's owner. The
  // bearer, action credential, claim-handle and producer-epoch hashes are never exported.
  {
    kind: 'room_sources',
    table: 'helix_room_sources',
    column: 'owner_hash',
    match: 'owner',
    exported: [
      'source_id',
      'room_id',
      'domain_adapter',
      'world_id',
      'label',
      'profile_id',
      'profile_version',
      'status',
      'credential_created_at',
      'expires_at',
      'rotated_at',
      'revoked_at',
      'created_by',
      'created_at',
    ],
    orderBy: ['created_at', 'source_id'],
  },
  {
    kind: 'room_source_deliveries',
    table: 'helix_room_source_deliveries',
    column: 'owner_hash',
    match: 'owner',
    exported: ['source_id', 'created_at', 'expires_at', 'claimed_at', 'claimed_by'],
    orderBy: ['created_at', 'handle_hash'],
  },
  {
    kind: 'room_source_admissions',
    table: 'helix_room_source_admissions',
    column: 'owner_hash',
    match: 'owner',
    exported: [
      'admission_id',
      'source_id',
      'profile_id',
      'profile_version',
      'manifest_id',
      'admitted_at',
      'invalidated_at',
    ],
    orderBy: ['admitted_at', 'admission_id'],
  },
  // The ingress lane (docs/rooms.md "Source ingress"): by the source's owner. Producer-epoch and
  // body hashes are never exported.
  {
    kind: 'room_ingress_requests',
    table: 'helix_room_ingress_requests',
    column: 'owner_hash',
    match: 'owner',
    exported: ['source_id', 'request_id', 'route', 'received_at'],
    orderBy: ['received_at', 'request_id'],
  },
  {
    kind: 'room_source_status',
    table: 'helix_room_source_status',
    column: 'owner_hash',
    match: 'owner',
    exported: ['source_id', 'last_heartbeat_at', 'game_connected', 'last_observed_at'],
    orderBy: ['source_id'],
  },
  {
    kind: 'room_observations',
    table: 'helix_room_observations',
    column: 'owner_hash',
    match: 'owner',
    exported: [
      'observation_id',
      'source_id',
      'room_id',
      'world_id',
      'profile_id',
      'profile_version',
      'manifest_id',
      'request_id',
      'event_id',
      'kind',
      'observed_at',
      'received_at',
      'payload_json',
    ],
    orderBy: ['received_at', 'observation_id'],
  },
  {
    kind: 'room_probes',
    table: 'helix_room_probes',
    column: 'owner_hash',
    match: 'owner',
    exported: [
      'probe_id',
      'source_id',
      'room_id',
      'run_id',
      'turn',
      'probe_type',
      'status',
      'requested_at',
      'answered_at',
    ],
    orderBy: ['requested_at', 'probe_id'],
  },
  // Runtime approval receipts the owner's actions consumed (D-06): the action hash is never exported.
  {
    kind: 'runtime_approvals',
    table: 'helix_runtime_approval_receipts',
    column: 'owner_hash',
    match: 'owner',
    exported: [
      'approval_id',
      'issuer',
      'key_id',
      'room_id',
      'subject_ref',
      'run_id',
      'turn',
      'issued_at',
      'expires_at',
      'consumed_at',
    ],
    orderBy: ['consumed_at', 'approval_id'],
  },
  // The embodiment (docs/embodiment.md): subjects by the source's owner (the player key, a hash of
  // the player's name, is never exported); workflows, actions and controls by the acting member.
  {
    kind: 'environment_subjects',
    table: 'helix_environment_subjects',
    column: 'owner_hash',
    match: 'owner',
    exported: ['subject_ref', 'source_id', 'room_id', 'holder_account_id', 'lease_expires_at', 'created_at'],
    orderBy: ['created_at', 'subject_ref'],
  },
  {
    kind: 'environment_workflows',
    table: 'helix_environment_workflows',
    column: 'owner_hash',
    match: 'owner',
    exported: ['workflow_ref', 'room_id', 'source_id', 'subject_ref', 'status', 'reason', 'created_at', 'updated_at'],
    orderBy: ['created_at', 'workflow_ref'],
  },
  {
    kind: 'environment_actions',
    table: 'helix_environment_actions',
    column: 'owner_hash',
    match: 'owner',
    exported: [
      'action_id',
      'workflow_ref',
      'source_id',
      'action_json',
      'status',
      'reason',
      'postcondition_json',
      'approval_id',
      'issued_at',
      'answered_at',
    ],
    orderBy: ['issued_at', 'action_id'],
  },
  {
    kind: 'environment_controls',
    table: 'helix_environment_controls',
    column: 'owner_hash',
    match: 'owner',
    exported: [
      'control_id',
      'workflow_ref',
      'source_id',
      'control',
      'status',
      'postcondition_json',
      'issued_at',
      'answered_at',
    ],
    orderBy: ['issued_at', 'control_id'],
  },
];

/**
 * Tables that hold no subject's rows: installation metadata, worker liveness, the operator's
 * research library, the migrator's own tables, and subject access's own bookkeeping (the owner
 * registry is erased as the erase's first step; the erasure audit keeps only hashes by design).
 */
export const SUBJECT_FREE_TABLES: readonly string[] = [
  'helix_meta',
  'helix_workers',
  'helix_library_documents',
  'helix_library_passages',
  'helix_library_fts',
  'helix_library_embeddings',
  'helix_migrations',
  'helix_migrations_lock',
  'helix_subject_owners',
  'helix_subject_erasures',
];
