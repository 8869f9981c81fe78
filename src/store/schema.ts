/** Row shapes, shared by both dialects. JSON is stored as text; instants as epoch milliseconds. */
export interface AgentRunsTable {
  run_id: string;
  owner_hash: string;
  tenant_ref: string;
  account_ref: string;
  objective: string;
  objective_hash: string;
  runtime_provider: string;
  lifecycle_status: string;
  completion_status: string;
  terminal_authority_status: string;
  version: number;
  steps_used: number;
  expires_at: number | string;
  last_event_seq: number;
  turn_id: string | null;
  turn_worker_id: string | null;
  turn_lease_expires_at: number | string | null;
  turn_started_at: number | string | null;
  /** JSON: contract, budget, constraints, scope, requirements, questions, answers, evidence, result. */
  state: string;
  created_at: number | string;
  updated_at: number | string;
  completed_at: number | string | null;
  cancelled_at: number | string | null;
}

export interface AgentRunEventsTable {
  run_id: string;
  seq: number;
  kind: string;
  version: number;
  data: string;
  created_at: number | string;
}

export interface AgentRunArtifactsTable {
  run_id: string;
  ref: string;
  turn: number;
  kind: string;
  family: string;
  capability_id: string;
  sha256: string;
  provenance: string;
  excerpt: string;
  title: string | null;
  created_at: number | string;
  /** 'retrieved' while only seen by a turn; 'admitted' once its turn's re-entry audit admitted it. */
  status: string;
}

export interface IdempotencyReceiptsTable {
  owner_hash: string;
  operation: string;
  key_hash: string;
  fingerprint: string;
  run_id: string | null;
  state: string;
  status_code: number | null;
  response_body: string | null;
  lease_expires_at: number | string | null;
  worker_id: string | null;
  created_at: number | string;
  expires_at: number | string;
}

export interface ApiKeysTable {
  key_id: string;
  key_hash: string;
  display_prefix: string;
  tenant_id: string;
  account_id: string;
  scopes: string;
  label: string | null;
  created_at: number | string;
  revoked_at: number | string | null;
}

export interface WorkersTable {
  worker_id: string;
  host: string;
  pid: number;
  started_at: number | string;
  heartbeat_at: number | string;
  stopped_at: number | string | null;
}

export interface MetaTable {
  key: string;
  value: string;
}

/** The console's chats and observer bindings (0014_chats, D-05, OBS-01..OBS-17). */
export interface ChatTables {
  helix_chat_sessions: ChatSessionsTable;
  helix_chat_messages: ChatMessagesTable;
  helix_chat_observer_bindings: ChatObserverBindingsTable;
}

export interface ChatSessionsTable {
  chat_id: string;
  account_id: string;
  title: string;
  created_at: number | string;
  updated_at: number | string;
}

export interface ChatMessagesTable {
  message_id: string;
  chat_id: string;
  account_id: string;
  role: string;
  content: string;
  created_at: number | string;
}

export interface ChatObserverBindingsTable {
  binding_ref: string;
  account_id: string;
  chat_id: string;
  claim_hash: string;
  status: string;
  expires_at: number | string;
  snapshot_ref: string | null;
  snapshot_json: string;
  snapshot_chars: number;
  run_id: string | null;
  run_chat_binding_ref: string | null;
  created_at: number | string;
  claimed_at: number | string | null;
  revoked_at: number | string | null;
}

export interface HelixDatabase
  extends LibraryTables,
    AccountTables,
    ModelProviderTables,
    SubjectTables,
    RoomTables,
    ChatTables {
  helix_agent_runs: AgentRunsTable;
  helix_agent_run_events: AgentRunEventsTable;
  helix_agent_run_artifacts: AgentRunArtifactsTable;
  helix_idempotency_receipts: IdempotencyReceiptsTable;
  helix_api_keys: ApiKeysTable;
  helix_workers: WorkersTable;
  helix_meta: MetaTable;
  helix_runtime_approval_receipts: RuntimeApprovalReceiptsTable;
  helix_run_agent_executors: RunAgentExecutorsTable;
}

/** ATP-31: a keyed hash of each credential that executed an agent call of the run (migration 0020). */
export interface RunAgentExecutorsTable {
  run_id: string;
  executor_hash: string;
  recorded_at: number | string;
}

export interface LibraryDocumentsTable {
  doc_id: string;
  origin: string;
  display_path: string;
  title: string;
  media_type: string;
  sha256: string;
  bytes: number | string;
  passage_count: number;
  added_at: number | string;
  updated_at: number | string;
}

export interface LibraryPassagesTable {
  /** SQLite only (never selected elsewhere): the integer key of the passage's FTS5 row. */
  rowkey: number | null;
  passage_id: string;
  doc_id: string;
  ordinal: number;
  heading: string | null;
  page: number | null;
  start_offset: number;
  end_offset: number;
  text: string;
}

/** SQLite only: the FTS5 index of passages; its rowid is the passage's rowkey. */
export interface LibraryFtsTable {
  rowid: number;
  heading: string;
  text: string;
}

/** A passage's embedding: Float32 little-endian bytes, L2-normalized when written. */
export interface LibraryEmbeddingsTable {
  passage_id: string;
  model: string;
  dims: number;
  vector: Uint8Array;
}

export interface LibraryTables {
  helix_library_documents: LibraryDocumentsTable;
  helix_library_passages: LibraryPassagesTable;
  helix_library_fts: LibraryFtsTable;
  helix_library_embeddings: LibraryEmbeddingsTable;
}

export interface AccountsTable {
  account_id: string;
  display_name: string;
  status: string;
  password_hash: string | null;
  created_at: number | string;
  updated_at: number | string;
}

export interface LinkedProvidersTable {
  provider: string;
  subject_hash: string;
  account_id: string;
  created_at: number | string;
}

export interface AgentAccountBindingsTable {
  binding_ref: string;
  account_id: string;
  issuer: string;
  tenant_hash: string;
  provider: string;
  subject_hash: string;
  status: string;
  created_at: number | string;
  updated_at: number | string;
  revoked_at: number | string | null;
}

export interface SessionsTable {
  session_hash: string;
  account_id: string;
  created_at: number | string;
  expires_at: number | string;
  revoked_at: number | string | null;
}

export interface OneTimeTokensTable {
  token_hash: string;
  purpose: string;
  account_id: string;
  created_at: number | string;
  expires_at: number | string;
  consumed_at: number | string | null;
}

export interface AccountTables {
  helix_accounts: AccountsTable;
  helix_account_linked_providers: LinkedProvidersTable;
  helix_agent_account_bindings: AgentAccountBindingsTable;
  helix_sessions: SessionsTable;
  helix_one_time_tokens: OneTimeTokensTable;
  helix_account_policies: AccountPoliciesTable;
}

export interface AccountPoliciesTable {
  account_id: string;
  /** JSON: the operator's explicit choices (src/domain/accountPolicy.ts PolicyOverrides). */
  overrides: string;
  updated_at: number | string;
}

export interface ModelProvidersTable {
  provider_id: string;
  owner_hash: string;
  kind: string;
  base_url: string;
  model: string;
  reasoning_effort: string | null;
  label: string | null;
  /** AES-256-GCM parts, base64; all null for a keyless provider. */
  secret_ciphertext: string | null;
  secret_iv: string | null;
  secret_tag: string | null;
  secret_key_id: string | null;
  created_at: number | string;
}

export interface ModelProviderTables {
  helix_model_providers: ModelProvidersTable;
}

/** ADR-0004 subject access: which data subject each owner hash belongs to. */
export interface SubjectOwnersTable {
  owner_hash: string;
  /** HMAC of the account id (src/accounts/identityHashes.ts `dataSubjectKey`); never the id in clear. */
  subject_key: string;
  created_at: number | string;
}

/** The audit of every erase, and its idempotency record. */
export interface SubjectErasuresTable {
  erasure_id: string;
  subject_key: string;
  /** The requesting credential's non-secret id (`key_…`), or `cli`. */
  requested_by: string;
  idempotency_key_hash: string;
  /** JSON: rows erased per record kind. */
  records: string;
  erased_at: number | string;
}

export interface SubjectTables {
  helix_subject_owners: SubjectOwnersTable;
  helix_subject_erasures: SubjectErasuresTable;
}

/** Shared Live Room (src/store/migrations/0009_rooms.ts). */
export interface RoomsTable {
  room_id: string;
  title: string;
  status: string;
  owner_account_id: string;
  tenant_hash: string;
  owner_hash: string | null;
  consent_version: number;
  created_at: number | string;
  updated_at: number | string;
}

export interface RoomConsentVersionsTable {
  room_id: string;
  version: number;
  text: string;
  published_at: number | string;
  published_by: string;
}

export interface RoomMembersTable {
  room_id: string;
  account_id: string;
  role: string;
  accepted_consent_version: number | null;
  consent_receipt_ref: string | null;
  joined_at: number | string;
  removed_at: number | string | null;
}

export interface RoomInvitesTable {
  /** SHA-256 of the show-once `hlxinv_` token. */
  token_hash: string;
  room_id: string;
  role: string;
  created_by: string;
  created_at: number | string;
  expires_at: number | string;
  used_at: number | string | null;
  /** The account that used it; null once that account's subject is erased (the row is the inviter's). */
  used_by: string | null;
  /** Opaque `rinv_` reference for listing and revoking (0018); never derived from the token again. */
  invite_ref: string;
  revoked_at: number | string | null;
}

export interface RoomRunBindingsTable {
  binding_ref: string;
  run_id: string;
  room_id: string;
  owner_hash: string;
  account_id: string;
  role: string;
  consent_version: number;
  consent_receipt_ref: string;
  status: string;
  created_at: number | string;
  revoked_at: number | string | null;
}

export interface RoomChatBindingsTable {
  binding_ref: string;
  run_id: string;
  owner_hash: string;
  chat_session_id: string | null;
  status: string;
  created_at: number | string;
  revoked_at: number | string | null;
}

/** Room sources (0010_room_sources): credentials, handles and producer epochs only as SHA-256. */
export interface RoomSourcesTable {
  source_id: string;
  room_id: string;
  domain_adapter: string;
  world_id: string;
  label: string;
  profile_id: string;
  profile_version: number;
  profile_hash: string;
  status: string;
  credential_hash: string | null;
  credential_created_at: number | string | null;
  /** 0013_embodiment: SHA-256 of the action credential (M-02), set and dropped with the bearer's. */
  action_credential_hash: string | null;
  expires_at: number | string;
  rotated_at: number | string | null;
  revoked_at: number | string | null;
  created_by: string;
  owner_hash: string;
  created_at: number | string;
}

/** 0013_embodiment: the embodiment (src/domain/embodiment.ts). */
export interface EnvironmentSubjectsTable {
  subject_ref: string;
  source_id: string;
  room_id: string;
  owner_hash: string;
  player_key: string;
  holder_account_id: string | null;
  lease_expires_at: number | string | null;
  created_at: number | string;
}

export interface EnvironmentWorkflowsTable {
  workflow_ref: string;
  room_id: string;
  source_id: string;
  subject_ref: string;
  account_id: string;
  owner_hash: string;
  status: string;
  reason: string | null;
  created_at: number | string;
  updated_at: number | string;
}

export interface EnvironmentActionsTable {
  action_id: string;
  workflow_ref: string;
  source_id: string;
  owner_hash: string;
  action_json: string;
  status: string;
  reason: string | null;
  postcondition_json: string | null;
  approval_id: string | null;
  /** The action's place in its workflow, from 0 (0015_embodiment_workflows). */
  step: number;
  issued_at: number | string;
  deadline_at: number | string;
  answered_at: number | string | null;
}

export interface EnvironmentControlsTable {
  control_id: string;
  workflow_ref: string;
  source_id: string;
  owner_hash: string;
  control: string;
  status: string;
  postcondition_json: string | null;
  issued_at: number | string;
  answered_at: number | string | null;
}

export interface RoomSourceDeliveriesTable {
  handle_hash: string;
  source_id: string;
  owner_hash: string;
  created_at: number | string;
  expires_at: number | string;
  claimed_at: number | string | null;
  claimed_by: string | null;
}

export interface RoomSourceAdmissionsTable {
  admission_id: string;
  source_id: string;
  owner_hash: string;
  profile_id: string;
  profile_version: number;
  profile_hash: string;
  manifest_id: string;
  manifest_hash: string;
  producer_epoch_hash: string;
  admitted_at: number | string;
  invalidated_at: number | string | null;
}

/** The ingress lane (0011_room_ingress): request ledger, source status, observations, probes. */
export interface RoomIngressRequestsTable {
  source_id: string;
  request_id: string;
  owner_hash: string;
  route: string;
  body_hash: string;
  producer_epoch_hash: string;
  received_at: number | string;
  response_json: string;
}

export interface RoomSourceStatusTable {
  source_id: string;
  owner_hash: string;
  producer_epoch_hash: string;
  last_heartbeat_at: number | string;
  game_connected: number;
  last_observed_at: number | string | null;
}

export interface RoomObservationsTable {
  observation_id: string;
  source_id: string;
  room_id: string;
  owner_hash: string;
  world_id: string;
  admission_id: string;
  profile_id: string;
  profile_version: number;
  profile_hash: string;
  manifest_id: string;
  manifest_hash: string;
  producer_epoch_hash: string;
  request_id: string;
  event_id: string;
  kind: string;
  observed_at: number | string;
  received_at: number | string;
  payload_json: string;
  payload_sha256: string;
  /** UTF-8 bytes of payload_json, which the room storage quota adds up (0019_room_storage_bounds). */
  payload_bytes: number | string;
}

export interface RoomProbesTable {
  probe_id: string;
  source_id: string;
  room_id: string;
  owner_hash: string;
  run_id: string;
  turn: number;
  probe_type: string;
  status: string;
  requested_at: number | string;
  expires_at: number | string;
  delivered_at: number | string | null;
  answered_at: number | string | null;
  observation_id: string | null;
}

export interface RoomTables {
  helix_rooms: RoomsTable;
  helix_room_consent_versions: RoomConsentVersionsTable;
  helix_room_members: RoomMembersTable;
  helix_room_invites: RoomInvitesTable;
  helix_room_run_bindings: RoomRunBindingsTable;
  helix_room_chat_bindings: RoomChatBindingsTable;
  helix_room_sources: RoomSourcesTable;
  helix_environment_subjects: EnvironmentSubjectsTable;
  helix_environment_workflows: EnvironmentWorkflowsTable;
  helix_environment_actions: EnvironmentActionsTable;
  helix_environment_controls: EnvironmentControlsTable;
  helix_room_source_deliveries: RoomSourceDeliveriesTable;
  helix_room_source_admissions: RoomSourceAdmissionsTable;
  helix_room_ingress_requests: RoomIngressRequestsTable;
  helix_room_source_status: RoomSourceStatusTable;
  helix_room_observations: RoomObservationsTable;
  helix_room_probes: RoomProbesTable;
}

/** The runtime approval replay ledger (0012_runtime_approvals, D-06). */
export interface RuntimeApprovalReceiptsTable {
  approval_id: string;
  issuer: string;
  key_id: string;
  owner_hash: string;
  room_id: string;
  subject_ref: string;
  run_id: string | null;
  turn: number | null;
  action_sha256: string;
  issued_at: number | string;
  expires_at: number | string;
  consumed_at: number | string;
}
