/**
 * The one error vocabulary of the Helix Agent API (`helix.agent_api.error.v1`).
 *
 * Every failure that crosses a boundary carries a stable string `code`. One table maps each code
 * to its HTTP status and, where ADR-0004 defines one, its numeric application code
 * (-32000..-32011), so REST and MCP can never disagree about what a failure means.
 */
/**
 * The bound room lane's recheck failures (BRE-04..BRE-06, PRB-01; docs/rooms.md "Bound room
 * evidence"): answered by a continue's precheck, or the code a turn fails with (src/domain/turnFailures.ts).
 */
export const BOUND_ROOM_FAILURE_CODES = [
  'environment_adapter_admission_required',
  'environment_adapter_contract_changed',
  'room_evidence_binding_missing',
  'room_evidence_membership_changed',
  'room_evidence_room_inactive',
  'room_evidence_source_unavailable',
  'room_evidence_stale',
  'room_evidence_identity_mismatch',
  'room_probe_timeout',
] as const;

export const ERROR_CODES = [
  'invalid_request',
  'multiple_credentials',
  'invalid_run_id',
  'idempotency_key_required',
  'unsupported_media_type',
  'payload_too_large',
  'request_timeout',
  'request_header_too_large',
  'unauthorized',
  'invalid_token',
  'insufficient_scope',
  'tenant_mismatch',
  'account_not_linked',
  'session_required',
  'forbidden_origin',
  'forbidden_host',
  'https_required',
  'scope_not_admitted',
  'scope_unavailable',
  'feature_not_enabled',
  'not_found',
  'method_not_allowed',
  'version_conflict',
  'run_busy',
  'too_many_turns',
  'run_not_active',
  'run_cancelled',
  'budget_exhausted',
  'invalid_answer',
  'confirmation_requires_person',
  'idempotency_conflict',
  'idempotency_in_progress',
  'outcome_unknown',
  'tool_not_found',
  'subject_not_found',
  'rate_limited',
  'auth_unavailable',
  'store_unavailable',
  'provider_secrets_unavailable',
  'provider_destination_refused',
  'room_role_forbidden',
  'room_consent_required',
  'room_binding_conflict',
  'command_execution_not_enabled',
  'chat_claim_not_found',
  'chat_binding_conflict',
  'observer_binding_closed',
  'environment_adapter_unknown',
  'environment_adapter_disabled',
  'environment_adapter_identity_mismatch',
  'environment_adapter_protocol_unsupported',
  'environment_adapter_manifest_incompatible',
  'environment_adapter_mechanics_incompatible',
  'environment_adapter_observation_schema_invalid',
  'ingress_request_replayed',
  'ingress_probe_not_found',
  'ingress_probe_closed',
  'room_storage_quota_exceeded',
  ...BOUND_ROOM_FAILURE_CODES,
  'runtime_approval_host_unconfigured',
  'runtime_approval_receipt_invalid',
  'runtime_approval_receipt_expired',
  'runtime_approval_receipt_replayed',
  'environment_action_not_supported',
  'environment_subject_required',
  'environment_subject_conflict',
  'environment_subject_busy',
  'environment_source_unavailable',
  'environment_workflow_not_resumable',
  'agent_call_not_found',
  'agent_call_claimed',
  'agent_tool_call_conflict',
  'agent_receipt_limit_reached',
  'agent_asset_not_found',
  'internal_error',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** ADR-0004 application error numbers (docs/spec/adr-0004-scoped-api-keys.md "Error model"). */
export const ADR_ERROR_NUMBERS = {
  authn_failed: -32000,
  authz_denied: -32001,
  capability_not_supported: -32002,
  ceiling_exceeded: -32003,
  budget_exhausted: -32004,
  tree_boundary_violation: -32005,
  subject_not_found: -32006,
  constitution_policy_violation: -32007,
  tool_not_found: -32008,
  version_mismatch: -32009,
  session_expired: -32010,
  lifecycle_conflict: -32011,
} as const;
export type AdrSymbol = keyof typeof ADR_ERROR_NUMBERS;

interface ErrorSpec {
  readonly status: number;
  readonly adr?: AdrSymbol;
  readonly message: string;
}

export const ERROR_TABLE: { readonly [C in ErrorCode]: ErrorSpec } = {
  invalid_request: { status: 400, message: 'The request is invalid.' },
  multiple_credentials: { status: 400, message: 'Present exactly one credential, in the Authorization header.' },
  invalid_run_id: { status: 400, message: 'The run_id is not a valid run identifier.' },
  idempotency_key_required: {
    status: 400,
    message: 'An Idempotency-Key of 8-200 printable characters is required.',
  },
  unsupported_media_type: { status: 415, message: 'The request body must be application/json.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  request_timeout: { status: 408, message: 'The request was not received in time.' },
  request_header_too_large: { status: 431, message: 'The request headers are too large.' },
  unauthorized: { status: 401, adr: 'authn_failed', message: 'Authentication is required.' },
  invalid_token: { status: 401, adr: 'authn_failed', message: 'The access token is invalid.' },
  // RFC 6750 §3.1: insufficient_scope is 403.
  insufficient_scope: {
    status: 403,
    adr: 'authz_denied',
    message: 'The access token lacks a required scope.',
  },
  tenant_mismatch: {
    status: 403,
    adr: 'authz_denied',
    message: 'A tenant header does not match the signed tenant of the credential.',
  },
  account_not_linked: {
    status: 403,
    adr: 'authz_denied',
    message: 'The token is valid but no active Helix account binding admits it.',
  },
  session_required: {
    status: 401,
    adr: 'session_expired',
    message: 'Sign in first: this page needs an active Helix browser session.',
  },
  forbidden_origin: { status: 403, message: 'The request origin is not allowed.' },
  forbidden_host: { status: 403, message: 'The request host is not allowed.' },
  https_required: { status: 403, message: 'HTTPS is required in production.' },
  scope_not_admitted: {
    status: 403,
    adr: 'capability_not_supported',
    message: 'A requested logical data scope is not enabled or not admitted for this account.',
  },
  scope_unavailable: {
    status: 409,
    adr: 'capability_not_supported',
    message: 'A requested logical data scope is enabled but its sources are not configured on this deployment.',
  },
  // The operator's account policy, not the token: more scope would not help (ADR-0004 keeps these apart).
  feature_not_enabled: {
    status: 403,
    adr: 'capability_not_supported',
    message: "This account's policy does not enable the feature this operation needs.",
  },
  not_found: { status: 404, message: 'The run was not found.' },
  method_not_allowed: { status: 405, message: 'The method is not allowed on this path.' },
  version_conflict: {
    status: 409,
    adr: 'lifecycle_conflict',
    message: 'expected_version does not match the current run version.',
  },
  run_busy: {
    status: 409,
    adr: 'lifecycle_conflict',
    message: 'Another continuation of this run is in progress.',
  },
  too_many_turns: {
    status: 429,
    adr: 'ceiling_exceeded',
    message: 'Too many turns are running: this owner, or this server, is at its limit. Retry after Retry-After.',
  },
  run_not_active: {
    status: 409,
    adr: 'lifecycle_conflict',
    message: 'The run is terminal and cannot be changed.',
  },
  run_cancelled: {
    status: 409,
    adr: 'lifecycle_conflict',
    message: 'The run was cancelled while the turn executed; the turn result was discarded.',
  },
  budget_exhausted: {
    status: 409,
    adr: 'budget_exhausted',
    message: 'The run has exhausted its step budget or expired.',
  },
  invalid_answer: {
    status: 400,
    message: 'Each answer must name an outstanding pending question exactly once.',
  },
  // ATP-31: the credential holds the scope; what it lacks is being a person. Not insufficient_scope
  // (no scope would help, and its challenge would say otherwise): another credential or the console answers.
  confirmation_requires_person: {
    status: 403,
    adr: 'authz_denied',
    message:
      'A confirmation must come from a person: this credential executed agent work in this run. Confirm with another credential of the owner, or in the console.',
  },
  idempotency_conflict: {
    status: 422,
    message: 'The Idempotency-Key was already used with a different request.',
  },
  idempotency_in_progress: {
    status: 409,
    message: 'A request with this Idempotency-Key is still being processed.',
  },
  outcome_unknown: {
    status: 409,
    message:
      'The request with this Idempotency-Key may have taken effect but its outcome was not recorded; inspect the run before retrying with a new key.',
  },
  tool_not_found: { status: 404, adr: 'tool_not_found', message: 'The tool is not in the effective toolset.' },
  // ADR-0004: a DSAR or erasure against an unknown subject. After an erase the subject is unknown too.
  subject_not_found: { status: 404, adr: 'subject_not_found', message: 'No record of this subject is held here.' },
  rate_limited: { status: 429, adr: 'ceiling_exceeded', message: 'Too many requests.' },
  auth_unavailable: {
    status: 503,
    message: 'Tokens cannot be verified right now (the signing keys are unreachable); retry later.',
  },
  store_unavailable: {
    status: 503,
    message: 'The durable store is temporarily unavailable; retry later.',
  },
  // Fail closed: without the operator key an API key could only be stored in clear, so it is not stored.
  // No ADR-0004 number: it is a deployment condition, not a capability the caller could negotiate.
  provider_secrets_unavailable: {
    status: 503,
    message: 'Model provider API keys cannot be stored: no provider secret key is configured on this deployment.',
  },
  // The outbound policy (src/net/addressPolicy.ts): an owner's provider may not point Helix at
  // loopback, private, link-local or other non-public addresses the operator has not admitted.
  provider_destination_refused: {
    status: 400,
    message:
      "The model provider base_url names a destination this deployment does not connect to on an owner's behalf.",
  },
  // Shared Live Room (docs/rooms.md). The caller is a member but its role does not allow the act:
  // an observer binding a run (RREST-04), a non-owner managing the room (D-09).
  room_role_forbidden: {
    status: 403,
    adr: 'authz_denied',
    message: 'Your role in this room does not allow this operation.',
  },
  // PRE-01, D-09: a state the member can change (accept the current consent version), hence 409, not a grant problem.
  room_consent_required: {
    status: 409,
    message: "Accept the room's current consent version before binding a run to it.",
  },
  // RREST-04, WD-09: one active binding per run; no endpoint moves it to another room.
  room_binding_conflict: {
    status: 409,
    adr: 'lifecycle_conflict',
    message: 'The run already has an active binding to another room; withdraw it before binding the run again.',
  },
  // RREST-10, MRT-10 (docs/spec/shared-live-room-requirements.md §22: 501 with details.execution_enabled false).
  command_execution_not_enabled: {
    status: 501,
    message: 'Room command execution is not enabled; no command was executed.',
  },
  // RREST-06, MRT-05: unknown, used, expired or another account's handle: one answer, nothing to probe.
  chat_claim_not_found: {
    status: 404,
    message: 'The chat claim handle was not found; it may be used or expired. Ask the browser for a new one.',
  },
  // WD-09: one active chat binding per run, never moved to another chat; OBS-16: one observer per chat.
  chat_binding_conflict: {
    status: 409,
    adr: 'lifecycle_conflict',
    message: 'The run or the chat already has an active chat binding; withdraw or disconnect it before claiming again.',
  },
  // OBS-12, WD-06: a disconnected (or expired) observer binding is closed for good; issue a fresh claim (WD-08).
  observer_binding_closed: {
    status: 409,
    adr: 'lifecycle_conflict',
    message: 'The observer binding is disconnected or expired; issue a new chat claim to observe a run.',
  },
  // The environment adapter registry (ING-04, §22; docs/rooms.md "The adapter registry"). No profile
  // accepts the domain_adapter: a value the caller chose, so 400.
  environment_adapter_unknown: {
    status: 400,
    adr: 'capability_not_supported',
    message: 'No environment adapter profile accepts this domain_adapter.',
  },
  // A known profile this deployment does not enable (the fixture-only adapter without its switch).
  environment_adapter_disabled: {
    status: 403,
    adr: 'capability_not_supported',
    message: 'The environment adapter profile for this domain_adapter is not enabled on this deployment.',
  },
  // A world id outside the profile's worlds, or a manifest naming another adapter, profile or world.
  environment_adapter_identity_mismatch: {
    status: 403,
    adr: 'authz_denied',
    message: "The adapter, profile or world does not match the source's environment adapter profile.",
  },
  environment_adapter_protocol_unsupported: {
    status: 422,
    adr: 'version_mismatch',
    message: "The manifest's protocol version is not one the adapter profile admits.",
  },
  environment_adapter_manifest_incompatible: {
    status: 422,
    adr: 'version_mismatch',
    message: 'The manifest does not satisfy the adapter profile (version, modalities or probe types).',
  },
  environment_adapter_mechanics_incompatible: {
    status: 422,
    adr: 'version_mismatch',
    message: "The manifest does not declare the adapter profile's mechanics collections.",
  },
  // The source ingress (ING-02, §22; docs/rooms.md "Source ingress"). Heartbeats, world events and
  // probe traffic need a current admission for the body's producer epoch: none yet, an older epoch
  // than the admitted one, or one invalidated by rotation. The producer fixes it with a manifest.
  environment_adapter_admission_required: {
    status: 409,
    adr: 'lifecycle_conflict',
    message: 'The source has no current adapter admission for this producer epoch; register a manifest first.',
  },
  // The code-owned profile changed since the source or its admission was made (a deployment changed it).
  environment_adapter_contract_changed: {
    status: 409,
    adr: 'version_mismatch',
    message: "The adapter profile's contract changed since this source was admitted; register a manifest again.",
  },
  environment_adapter_observation_schema_invalid: {
    status: 422,
    adr: 'version_mismatch',
    message: "An observation does not satisfy the source's adapter profile.",
  },
  // ING-02: a request_id is used once per source; only a retry of the identical body is answered again.
  ingress_request_replayed: {
    status: 409,
    adr: 'lifecycle_conflict',
    message: 'This request_id was already used with a different body; send a new request_id.',
  },
  // PRB-02: unknown, or another source's probe: one answer.
  ingress_probe_not_found: { status: 404, message: 'No such probe for this source.' },
  ingress_probe_closed: {
    status: 409,
    adr: 'lifecycle_conflict',
    message: 'The probe was already answered or has expired.',
  },
  // docs/rooms.md "Storage bounds": the room's observations fill HELIX_ROOM_STORAGE_QUOTA_BYTES and
  // the source's own older observations cannot make room. RFC 4918 §11.5 507: the server cannot
  // store what the request needs; ADR-0004 ceiling_exceeded: a hard ceiling hit. Not 429: no rate
  // was exceeded and waiting frees nothing (the connector does not retry a 507).
  room_storage_quota_exceeded: {
    status: 507,
    adr: 'ceiling_exceeded',
    message: "The room's sources already hold all the observation storage its quota allows; nothing was stored.",
  },
  // Bound room evidence and the environment probe (BRE-04..BRE-06, PRB-01; docs/rooms.md "Bound room
  // evidence"): every recheck a turn of a room-bound run fails has its own code; a source without a
  // current admission, or admitted under an older profile contract, answers the two ingress codes above.
  // BRE-03: a room-scoped run reads nothing until it is durably bound to one room.
  room_evidence_binding_missing: {
    status: 409,
    message: 'The run has no active room binding; bind it to a room before continuing it.',
  },
  // BRE-04, BRE-05: the participant who bound the run was removed, changed role, or its consent identity changed.
  room_evidence_membership_changed: {
    status: 403,
    adr: 'authz_denied',
    message: "The membership, role or consent that authorized the run's room binding has changed; bind the run again.",
  },
  room_evidence_room_inactive: {
    status: 409,
    adr: 'lifecycle_conflict',
    message: 'The room the run is bound to is not active.',
  },
  // ING-02: no active, credentialed, unexpired source in the room.
  room_evidence_source_unavailable: {
    status: 409,
    message: 'The room has no active, credentialed source to read from.',
  },
  // ING-05: nothing observed within HELIX_BOUND_ROOM_EVIDENCE_MAX_AGE_MS.
  room_evidence_stale: {
    status: 409,
    message: "The room source's latest observation is missing or older than the freshness ceiling.",
  },
  // ING-02: the observation's provenance is not the source's current admission (or another room's).
  room_evidence_identity_mismatch: {
    status: 409,
    message: "The observation's provenance does not match the room source's current admission.",
  },
  // PRB-01: the source did not answer the probe before the turn stopped waiting.
  room_probe_timeout: {
    status: 504,
    message: "The room's source did not answer the probe in time.",
  },
  // Runtime approval receipts (APR-01..APR-11, D-11; docs/embodiment.md "Runtime approval receipts").
  // APR-08: no trusted key registry, so no approval can be verified: a deployment condition, as
  // command_execution_not_enabled is, hence 501.
  runtime_approval_host_unconfigured: {
    status: 501,
    adr: 'capability_not_supported',
    message:
      'This action needs a runtime approval receipt, and no runtime approval host is configured on this deployment.',
  },
  // Malformed, badly signed, from an untrusted key, or bound to another action, room, subject, run or
  // turn: one code, so a caller cannot probe which bound field differed.
  runtime_approval_receipt_invalid: {
    status: 403,
    adr: 'authz_denied',
    message: 'The runtime approval receipt is invalid for this action.',
  },
  runtime_approval_receipt_expired: {
    status: 403,
    adr: 'authz_denied',
    message: 'The runtime approval receipt has expired; ask the approval host for a new one.',
  },
  // D-06: consumed once in the durable replay ledger; a second use is a conflict with that state.
  runtime_approval_receipt_replayed: {
    status: 409,
    adr: 'lifecycle_conflict',
    message: 'The runtime approval receipt was already used; each receipt approves one action once.',
  },
  // The embodiment (MC-01..MC-15, M-03, D-10; docs/embodiment.md). D-10: a kind the reference
  // connector cannot verify on its server, or any kind outside MC-15, is refused before anything is queued.
  environment_action_not_supported: {
    status: 422,
    adr: 'capability_not_supported',
    message: 'This action kind is not supported by the environment adapter.',
  },
  environment_subject_required: {
    status: 409,
    adr: 'lifecycle_conflict',
    message: 'Select your identity in this environment first (helix_environment_subject_select).',
  },
  // MC-09: one member per subject; two agents cannot drive one player.
  environment_subject_conflict: {
    status: 409,
    adr: 'lifecycle_conflict',
    message: 'Another room member holds this environment subject.',
  },
  // One open workflow per subject: a second would interleave its steps with the first's.
  environment_subject_busy: {
    status: 409,
    adr: 'lifecycle_conflict',
    message:
      'Your player is running another workflow; follow it with helix_minecraft_workflow_status or cancel it first.',
  },
  // Not live, not admitted, or its connector has not sent a heartbeat within the profile ceiling.
  environment_source_unavailable: {
    status: 409,
    adr: 'lifecycle_conflict',
    message: "The environment's connector is not connected and admitted now.",
  },
  environment_workflow_not_resumable: {
    status: 409,
    adr: 'lifecycle_conflict',
    message: 'Only a blocked workflow can be resumed.',
  },
  // Agent-task protocol (docs/agent-tasks.md; ATP-15..ATP-23, ATP-36): another owner's call, a forged
  // or stale owner token, and a call that is no longer pending all read as "not found".
  agent_call_not_found: {
    status: 404,
    message: 'No pending agent call matches this reference (it ended, or the owner token is not current).',
  },
  agent_call_claimed: {
    status: 409,
    adr: 'lifecycle_conflict',
    message: 'Another claimant holds this agent call.',
  },
  agent_tool_call_conflict: {
    status: 409,
    adr: 'lifecycle_conflict',
    message: 'A tool call is still in flight, or this toolCallId was used with a different tool or input.',
  },
  agent_receipt_limit_reached: {
    status: 409,
    adr: 'ceiling_exceeded',
    message: 'This agent task has retained its maximum number of tool receipts.',
  },
  agent_asset_not_found: { status: 404, message: 'The task declares no asset with this id.' },
  internal_error: { status: 500, message: 'An internal error occurred.' },
};

/** Details that may accompany an error; all values are server-derived and safe to echo. */
export interface ErrorDetails {
  readonly current_version?: number;
  readonly run_id?: string;
  readonly scope?: string;
  /** The account feature a `feature_not_enabled` refusal names. */
  readonly feature?: string;
  readonly issues?: readonly { readonly path: string; readonly message: string }[];
  readonly retry_after_seconds?: number;
  /** `command_execution_not_enabled`: always false (RREST-10). */
  readonly execution_enabled?: false;
  /** `room_storage_quota_exceeded`: the room's quota, HELIX_ROOM_STORAGE_QUOTA_BYTES. */
  readonly quota_bytes?: number;
}

export class HelixError extends Error {
  override readonly name = 'HelixError';
  constructor(
    readonly code: ErrorCode,
    readonly details: ErrorDetails = {},
    message?: string,
  ) {
    super(message ?? ERROR_TABLE[code].message);
  }

  get status(): number {
    return ERROR_TABLE[this.code].status;
  }

  get adrNumber(): number | undefined {
    const symbol = ERROR_TABLE[this.code].adr;
    return symbol === undefined ? undefined : ADR_ERROR_NUMBERS[symbol];
  }
}

export const isHelixError = (value: unknown): value is HelixError => value instanceof HelixError;
