import { z } from 'zod';
import { EventPageSchema, EvidenceBundleSchema, RunViewSchema } from '../../../api/outputSchemas.js';
import {
  CancelRunRequestSchema,
  ContinueRunRequestSchema,
  IdempotencyKeySchema,
  ListEventsQuerySchema,
  RunIdSchema,
  StartRunRequestSchema,
} from '../../../api/schemas.js';
import type { ToolDefinition } from '../toolDefinition.js';

const key = IdempotencyKeySchema.describe(
  'Caller-chosen key, 8-200 printable characters; reuse it only to retry the same request.',
);
const runId = RunIdSchema.describe('The run_id returned by helix_run_start.');
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The six durable-run tools of the contract's MCP surface, as a table. */
export const RUN_TOOLS: readonly ToolDefinition[] = [
  {
    name: 'helix_run_start',
    title: 'Start a Helix run',
    description:
      'Record a bounded research objective as a durable run (version 1). Does not execute a turn: call helix_run_continue next.',
    operation: 'run.start',
    mutation: true,
    input: z.strictObject({ idempotency_key: key, request: StartRunRequestSchema }),
    output: RunViewSchema,
    call: (s, p, a) => s.runs.start(p, str(a.idempotency_key), a.request),
  },
  {
    name: 'helix_run_continue',
    title: 'Continue a Helix run by one governed turn',
    description:
      'Execute exactly one governed solver turn. Pass the current version as request.expected_version, and an instruction and/or answers to pending_questions.',
    operation: 'run.continue',
    mutation: true,
    input: z.strictObject({ run_id: runId, idempotency_key: key, request: ContinueRunRequestSchema }),
    output: RunViewSchema,
    call: (s, p, a) => s.runs.continue(p, String(a.run_id), str(a.idempotency_key), a.request),
  },
  {
    name: 'helix_run_cancel',
    title: 'Cancel a Helix run',
    description: 'Durably and irreversibly close a nonterminal run. A turn in flight is discarded.',
    operation: 'run.cancel',
    mutation: true,
    destructive: true,
    input: z.strictObject({ run_id: runId, idempotency_key: key, request: CancelRunRequestSchema }),
    output: RunViewSchema,
    call: (s, p, a) => s.runs.cancel(p, String(a.run_id), str(a.idempotency_key), a.request),
  },
  {
    name: 'helix_run_inspect',
    title: 'Inspect a Helix run',
    description:
      'The current run snapshot: statuses, version, budget, questions, evidence summary and recommended_next_action.',
    operation: 'run.inspect',
    mutation: false,
    input: z.strictObject({ run_id: runId }),
    output: RunViewSchema,
    call: (s, p, a) => s.runs.inspect(p, String(a.run_id)),
  },
  {
    name: 'helix_run_fetch_evidence',
    title: 'Fetch the evidence bundle of a Helix run',
    description:
      'Admitted observation, evidence and receipt artifacts with provenance; claims; terminal-authority status.',
    operation: 'run.evidence',
    mutation: false,
    input: z.strictObject({ run_id: runId }),
    output: EvidenceBundleSchema,
    call: (s, p, a) => s.runs.evidence(p, String(a.run_id)),
  },
  {
    name: 'helix_run_list_events',
    title: 'List the events of a Helix run',
    description: 'One ordered page of run events after after_seq (limit 1-200); follow next_after_seq while has_more.',
    operation: 'run.events',
    mutation: false,
    input: z.strictObject({ run_id: runId, ...ListEventsQuerySchema.shape }),
    output: EventPageSchema,
    call: (s, p, a) => {
      const { run_id: id, ...query } = a;
      return s.runs.events(p, String(id), Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)));
    },
  },
];
