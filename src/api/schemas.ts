import { z } from 'zod';
import { BUDGET_BOUNDS, BUDGET_DEFAULTS, CONTRACT_BOUNDS, CONTRACT_DEFAULTS } from '../domain/contract.js';
import { RUN_ID_PATTERN } from '../domain/run.js';
import { TURN_EXECUTORS } from '../domain/agentTask.js';
import { LIFECYCLE_STATUSES } from '../domain/statuses.js';

/**
 * The request contract, written once. REST validates bodies with these schemas and MCP publishes
 * them as tool `inputSchema`s. Every object is strict: an unknown field is a 400, never ignored.
 */
/**
 * Caller text. NUL is refused: PostgreSQL text cannot hold it (SQLite can), so accepting it would
 * make the same request succeed on one store and fail with a 500 on the other.
 */
const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((s) => !s.includes('\u0000'), 'must not contain NUL characters');

export const RunIdSchema = z.string().regex(RUN_ID_PATTERN, 'must match run_[A-Za-z0-9._:-]{8,200}');

export const LogicalScopeIdSchema = z.string().regex(/^[a-z][a-z0-9_]{1,62}$/, 'must be a logical data scope id');

export const CompletionContractSchema = z.strictObject({
  min_evidence_refs: z
    .number()
    .int()
    .min(CONTRACT_BOUNDS.min_evidence_refs.min)
    .max(CONTRACT_BOUNDS.min_evidence_refs.max)
    .default(CONTRACT_DEFAULTS.min_evidence_refs),
  require_terminal_authority: z.boolean().default(CONTRACT_DEFAULTS.require_terminal_authority),
  required_output_fields: z
    .array(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'must be a snake_case field name'))
    .max(CONTRACT_BOUNDS.required_output_fields.maxItems)
    .default([...CONTRACT_DEFAULTS.required_output_fields]),
  max_unresolved_requirements: z
    .number()
    .int()
    .min(CONTRACT_BOUNDS.max_unresolved_requirements.min)
    .max(CONTRACT_BOUNDS.max_unresolved_requirements.max)
    .default(CONTRACT_DEFAULTS.max_unresolved_requirements),
  allow_conflicts: z.boolean().default(CONTRACT_DEFAULTS.allow_conflicts),
});

export const BudgetSchema = z.strictObject({
  max_steps: z
    .number()
    .int()
    .min(BUDGET_BOUNDS.max_steps.min)
    .max(BUDGET_BOUNDS.max_steps.max)
    .default(BUDGET_DEFAULTS.max_steps),
  expires_in_seconds: z
    .number()
    .int()
    .min(BUDGET_BOUNDS.expires_in_seconds.min)
    .max(BUDGET_BOUNDS.expires_in_seconds.max)
    .default(BUDGET_DEFAULTS.expires_in_seconds),
});

export const StartRunRequestSchema = z.strictObject({
  objective: text(4000),
  constraints: z.array(text(1000)).max(32).default([]),
  database_scope: z
    .array(LogicalScopeIdSchema)
    .max(16)
    .default([])
    .refine((scopes) => new Set(scopes).size === scopes.length, 'must not repeat a scope'),
  completion_contract: CompletionContractSchema.default(() => CompletionContractSchema.parse({})),
  budget: BudgetSchema.default(() => BudgetSchema.parse({})),
  turn_executor: z
    .enum(TURN_EXECUTORS)
    // Optional rather than defaulted: an omitted field keeps the request's idempotency fingerprint
    // what it was before the field existed, so a start retried across an upgrade still replays.
    .optional()
    .describe(
      "Who works the run's turns: `helix` (the default: Helix's own executor) or `agent_task` (an external agent claims each turn over the MCP agent-task tools; docs/agent-tasks.md).",
    ),
});
export type StartRunRequest = z.infer<typeof StartRunRequestSchema>;

export const AnswerSchema = z.strictObject({
  question_id: text(200),
  value: z.json(),
});

const ExpectedVersionSchema = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

export const ContinueRunRequestSchema = z
  .strictObject({
    expected_version: ExpectedVersionSchema,
    instruction: text(4000).optional(),
    answers: z.array(AnswerSchema).max(32).default([]),
  })
  .refine((r) => r.instruction !== undefined || r.answers.length > 0, {
    message: 'a continuation needs a nonempty instruction, at least one answer, or both',
    path: ['instruction'],
  });
export type ContinueRunRequest = z.infer<typeof ContinueRunRequestSchema>;

export const CancelRunRequestSchema = z.strictObject({
  expected_version: ExpectedVersionSchema,
  reason: text(1000).optional(),
});
export type CancelRunRequest = z.infer<typeof CancelRunRequestSchema>;

export const EVENTS_LIMIT = { min: 1, max: 200, default: 50 } as const;

/** A query-string integer: plain decimal digits only (no signs, exponents or blanks). */
export const queryInt = (min: number, max: number) =>
  z
    .union([
      z.number(),
      z
        .string()
        .regex(/^\d{1,15}$/, 'must be a decimal integer')
        .transform(Number),
    ])
    .pipe(z.number().int().min(min).max(max));

/** A long poll waits at most this long for the first new event (0, the default, answers at once). */
export const EVENTS_MAX_WAIT_MS = 25_000;

export const ListEventsQuerySchema = z.strictObject({
  after_seq: queryInt(0, Number.MAX_SAFE_INTEGER).default(0),
  limit: queryInt(EVENTS_LIMIT.min, EVENTS_LIMIT.max).default(EVENTS_LIMIT.default),
  wait_ms: queryInt(0, EVENTS_MAX_WAIT_MS).default(0),
});

export const StreamEventsQuerySchema = z.strictObject({
  after_seq: queryInt(0, Number.MAX_SAFE_INTEGER).optional(),
});
export type ListEventsQuery = z.infer<typeof ListEventsQuerySchema>;

export const RUNS_LIMIT = { min: 1, max: 100, default: 20 } as const;
/** The longest objective search text: an objective is at most 4,000 characters, a search far less. */
export const RUN_SEARCH_MAX = 200;

/** GET /api/v1/agent-runs: filters, then the opaque cursor a previous page returned (src/service/runs/runCursor.ts). */
export const ListRunsQuerySchema = z.strictObject({
  status: z.enum(LIFECYCLE_STATUSES).optional(),
  q: text(RUN_SEARCH_MAX).optional(),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{8,400}\.[0-9a-f]{32}$/, 'must be a next_cursor this endpoint returned')
    .optional(),
  limit: queryInt(RUNS_LIMIT.min, RUNS_LIMIT.max).default(RUNS_LIMIT.default),
});
export type ListRunsQuery = z.infer<typeof ListRunsQuerySchema>;

/** A calendar day (UTC) as a date input sends it. */
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), 'must be a real date');

/** The console's run search: the REST filters plus the days the runs were created in (both inclusive). */
export const ConsoleRunListQuerySchema = ListRunsQuerySchema.extend({ from: day.optional(), to: day.optional() });

/** Idempotency-Key: 8-200 printable ASCII characters, no spaces or controls. */
export const IdempotencyKeySchema = z.string().regex(/^[\x21-\x7e]{8,200}$/, 'must be 8-200 printable characters');
