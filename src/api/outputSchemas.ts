import { ANSWER_TYPES } from '../domain/answerContract/answerTypes.js';
import { FOCUS_KINDS } from '../domain/answerContract/focusTerms.js';
import { z } from 'zod';
import { ERROR_CODES } from '../domain/errors.js';
import { EVENT_KINDS } from '../domain/events.js';
import {
  COMPLETION_STATUSES,
  LIFECYCLE_STATUSES,
  NEXT_ACTIONS,
  TERMINAL_AUTHORITY_STATUSES,
} from '../domain/statuses.js';
import { ARTIFACT_KINDS } from '../domain/turn.js';
import { QUESTION_KINDS } from '../domain/run.js';

/**
 * Output contract of the public projections, published as MCP `outputSchema`s (and in the API
 * reference). Objects are loose so a client built today keeps validating when a field is added;
 * `outputSchemas.test.ts` checks every projection against these schemas, so they cannot drift.
 */
export const FalseFlags = {
  answer_authority: z.literal(false),
  assistant_answer: z.literal(false),
  terminal_eligible: z.literal(false),
  raw_content_included: z.literal(false),
};
const Instant = z.string();
const NullableInstant = z.string().nullable();

/**
 * What the model provider stated about a failed turn's error (docs/models.md "Failures"): its
 * `type` and `code` as identifiers, its `message` bounded and sanitized, the HTTP status when there was one.
 */
export const FailureDetailSchema = z.looseObject({
  provider: z.string().nullable(),
  type: z.string().nullable(),
  code: z.string().nullable(),
  message: z.string().nullable(),
  http_status: z.number().int().nullable(),
});

export const RunViewSchema = z.looseObject({
  schema: z.literal('helix.agent_run.v1'),
  run_id: z.string(),
  ownership: z.looseObject({ owner_ref: z.string(), tenant_ref: z.string(), account_ref: z.string() }),
  objective: z.string(),
  objective_hash: z.string(),
  runtime_provider: z.string(),
  lifecycle_status: z.enum(LIFECYCLE_STATUSES),
  completion_status: z.enum(COMPLETION_STATUSES),
  terminal_authority_status: z.enum(TERMINAL_AUTHORITY_STATUSES),
  version: z.number().int(),
  completion_contract: z.looseObject({
    min_evidence_refs: z.number().int(),
    require_terminal_authority: z.boolean(),
    required_output_fields: z.array(z.string()),
    max_unresolved_requirements: z.number().int(),
    allow_conflicts: z.boolean(),
  }),
  answer_contract: z.looseObject({
    version: z.number().int(),
    parts: z.array(
      z.looseObject({
        text: z.string(),
        expected_types: z.array(z.enum(ANSWER_TYPES)),
        focus_terms: z.array(z.looseObject({ term: z.string(), kind: z.enum(FOCUS_KINDS), weight: z.number() })),
      }),
    ),
    min_focus_coverage: z.number(),
    weighting: z.enum(['corpus', 'uniform']),
  }),
  constraints: z.array(z.string()),
  database_scope: z.array(z.string()),
  budget: z.looseObject({
    max_steps: z.number().int(),
    expires_in_seconds: z.number().int(),
    steps_used: z.number().int(),
    steps_remaining: z.number().int(),
    expires_at: NullableInstant,
  }),
  summary: z.looseObject({
    turns_completed: z.number().int(),
    evidence_ref_count: z.number().int(),
    unresolved_requirement_count: z.number().int(),
    contradiction_count: z.number().int(),
    pending_question_count: z.number().int(),
    turn_in_progress: z.boolean(),
  }),
  unresolved_requirements: z.array(z.string()),
  contradictions: z.array(
    z.looseObject({ contradiction_id: z.string(), description: z.string(), refs: z.array(z.string()) }),
  ),
  pending_questions: z.array(
    z.looseObject({
      question_id: z.string(),
      prompt: z.string(),
      answer_hint: z.string().optional(),
      kind: z.enum(QUESTION_KINDS).optional(),
      skippable: z.boolean().optional(),
    }),
  ),
  evidence: z.looseObject({ count: z.number().int(), refs: z.array(z.string()), truncated: z.boolean() }),
  latest_result: z
    .looseObject({
      turn: z.number().int(),
      outcome: z.enum(['succeeded', 'failed', 'timed_out', 'aborted']),
      text: z.string().nullable(),
      supporting_evidence_refs: z.array(z.string()),
      output_fields: z.record(z.string(), z.unknown()),
      terminal_candidate_ref: z.string().nullable(),
      writer: z.string().nullable(),
      authority_reason: z.string().nullable(),
      failure_code: z.string().nullable(),
      failure_detail: FailureDetailSchema.nullable(),
    })
    .nullable(),
  recommended_next_action: z.enum(NEXT_ACTIONS),
  created_at: NullableInstant,
  updated_at: NullableInstant,
  completed_at: NullableInstant,
  cancelled_at: NullableInstant,
  ...FalseFlags,
});

export const RunListViewSchema = z.looseObject({
  schema: z.literal('helix.agent_run.list.v1'),
  runs: z.array(
    z.looseObject({
      run_id: z.string(),
      objective: z.string(),
      lifecycle_status: z.enum(LIFECYCLE_STATUSES),
      completion_status: z.enum(COMPLETION_STATUSES),
      terminal_authority_status: z.enum(TERMINAL_AUTHORITY_STATUSES),
      version: z.number().int(),
      steps_used: z.number().int(),
      max_steps: z.number().int(),
      pending_question_count: z.number().int(),
      recommended_next_action: z.enum(NEXT_ACTIONS),
      created_at: NullableInstant,
      updated_at: NullableInstant,
    }),
  ),
  next_cursor: z.string().nullable(),
});

export const EventViewSchema = z.looseObject({
  schema: z.literal('helix.agent_run.event.v1'),
  run_id: z.string(),
  seq: z.number().int(),
  kind: z.enum(EVENT_KINDS),
  run_version: z.number().int(),
  data: z.record(z.string(), z.unknown()),
  created_at: NullableInstant,
  ...FalseFlags,
});

export const EventPageSchema = z.looseObject({
  schema: z.literal('helix.agent_run.event.v1.page'),
  run_id: z.string(),
  events: z.array(EventViewSchema),
  next_after_seq: z.number().int(),
  has_more: z.boolean(),
  ...FalseFlags,
});

const Claim = z.looseObject({ claim: z.string(), refs: z.array(z.string()) });

export const EvidenceBundleSchema = z.looseObject({
  schema: z.literal('helix.agent_run.evidence_bundle.v1'),
  run_id: z.string(),
  version: z.number().int(),
  observation_refs: z.array(z.string()),
  evidence_refs: z.array(z.string()),
  receipt_refs: z.array(z.string()),
  artifacts: z.array(
    z.looseObject({
      ref: z.string(),
      kind: z.enum(ARTIFACT_KINDS),
      evidence_family: z.string(),
      capability_id: z.string(),
      sha256: z.string(),
      turn: z.number().int(),
      title: z.string().nullable(),
      excerpt: z.string(),
      provenance: z.looseObject({
        source_id: z.string(),
        locator: z.string(),
        retrieved_at: Instant,
        turn: z.number().int(),
      }),
    }),
  ),
  supported_claims: z.array(Claim),
  contradicted_claims: z.array(
    z.looseObject({ contradiction_id: z.string(), description: z.string(), refs: z.array(z.string()) }),
  ),
  unresolved_requirements: z.array(z.string()),
  terminal_candidate_ref: z.string().nullable(),
  terminal_candidate_writer: z.string().nullable(),
  terminal_authority_status: z.enum(TERMINAL_AUTHORITY_STATUSES),
  ...FalseFlags,
});

export const ErrorBodySchema = z.looseObject({
  schema: z.literal('helix.agent_api.error.v1'),
  code: z.enum(ERROR_CODES),
  message: z.string(),
  status: z.number().int(),
  adr_code: z.number().int().optional(),
  current_version: z.number().int().optional(),
  run_id: z.string().optional(),
  scope: z.string().optional(),
  feature: z.string().optional(),
  issues: z.array(z.looseObject({ path: z.string(), message: z.string() })).optional(),
  retry_after_seconds: z.number().optional(),
  execution_enabled: z.literal(false).optional(),
  quota_bytes: z.number().int().optional(),
});
