import { z } from 'zod';
import {
  AGENT_IDENTITY_PATTERN,
  ASSET_ID_PATTERN,
  MAX_AGENT_RECEIPTS,
  MAX_ASSET_READ_BYTES,
  OWNER_TOKEN_PREFIX,
} from '../domain/agentTask.js';
import { RUN_ID_PATTERN } from '../domain/run.js';
import { RunViewSchema } from './outputSchemas.js';

/**
 * The agent-task tools' contract (docs/agent-tasks.md). Field names are the reference's own
 * (`runId`, `callId`, `ownedRef`, `ownerToken`, `toolCallId`: docs/spec/agent-task-mcp-reference.md),
 * so an agent written against the reference works unchanged.
 */
const identity = (what: string) =>
  z.string().regex(AGENT_IDENTITY_PATTERN, `must be 1-200 characters of A-Z a-z 0-9 . _ : - (${what})`);

const CALL_ID_PATTERN = /^call_[A-Za-z0-9_-]{8,64}$/;
const OWNER_TOKEN_PATTERN = new RegExp(`^${OWNER_TOKEN_PREFIX}[A-Za-z0-9_-]{16,128}$`);

/** ATP-15: a task reference. */
export const AgentTaskRefSchema = z.strictObject({
  runId: z.string().regex(RUN_ID_PATTERN).describe('The run whose turn is pending.'),
  callId: z.string().regex(CALL_ID_PATTERN).describe("The pending agent call's id (pendingAgentCall.id)."),
});

/** ATP-15: an owned reference adds the owner token the claim returned. */
export const OwnedRefSchema = AgentTaskRefSchema.extend({
  ownerToken: z
    .string()
    .regex(OWNER_TOKEN_PATTERN)
    .describe('The owner token from helix_agent_task_claim; keep it private (ATP-07).'),
});
export type OwnedRef = z.infer<typeof OwnedRefSchema>;

export const ListAgentCallsRequestSchema = z.strictObject({
  runId: z.string().regex(RUN_ID_PATTERN).optional().describe('Only this run.'),
  waitSeconds: z
    .number()
    .int()
    .min(0)
    .max(25)
    .default(0)
    .describe('Long poll: wait up to this long for a pending call to appear.'),
});

export const ClaimAgentCallRequestSchema = AgentTaskRefSchema.extend({
  claimId: identity('claimId').describe('A stable unique id you generate and keep; reuse it to recover the claim.'),
});

export const CallAgentToolRequestSchema = z.strictObject({
  ownedRef: OwnedRefSchema,
  toolCallId: identity('toolCallId').describe('New for each call; reuse it only to retry the same call.'),
  name: z.string().min(1).max(64).describe('A tool the task declares.'),
  input: z.record(z.string(), z.json()).default({}).describe("The tool's input, matching its inputSchema."),
});

export const ReadAgentAssetRequestSchema = z.strictObject({
  ownedRef: OwnedRefSchema,
  assetId: z.string().regex(ASSET_ID_PATTERN, 'must be a declared asset id, never a path'),
  offset: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  maxBytes: z.number().int().min(1).max(MAX_ASSET_READ_BYTES).default(MAX_ASSET_READ_BYTES),
});

export const CompleteAgentCallRequestSchema = z.strictObject({
  ownedRef: OwnedRefSchema,
  result: z
    .union([z.record(z.string(), z.json()), z.string().max(256 * 1024)])
    .describe(
      "The raw final JSON matching the task's outputSchema (an object, or its JSON text); validated against that schema.",
    ),
});

export const ReleaseAgentCallRequestSchema = z.strictObject({
  ownedRef: OwnedRefSchema,
  abandon: z
    .boolean()
    .default(false)
    .describe('false: give the claim up, the call stays pending; true: give the task up, the turn fails.'),
});

const JsonSchemaObject = z.record(z.string(), z.unknown());

export const AgentCallSummarySchema = z.strictObject({
  runId: z.string(),
  callId: z.string(),
  turn: z.number().int(),
  claimed: z.boolean(),
  deadline: z.string().describe('When the turn times out (ISO 8601).'),
});

export const AgentCallListSchema = z.strictObject({ calls: z.array(AgentCallSummarySchema) });

export const AgentTaskSchema = z.strictObject({
  instructions: z.string(),
  skills: z.array(z.string()),
  tools: z.array(z.strictObject({ name: z.string(), description: z.string(), inputSchema: JsonSchemaObject })),
  outputSchema: JsonSchemaObject,
  assets: z.array(z.strictObject({ id: z.string(), mediaType: z.string(), bytes: z.number().int() })),
  maxReceipts: z.literal(MAX_AGENT_RECEIPTS),
});

export const AgentClaimSchema = z.strictObject({
  ownedRef: OwnedRefSchema,
  recovered: z
    .boolean()
    .describe('true when this claimId already held the call (a fresh owner token replaces the old one).'),
  task: AgentTaskSchema,
});

export const AgentToolReceiptSchema = z.strictObject({
  receiptNumber: z.number().int().min(1).max(MAX_AGENT_RECEIPTS),
  toolCallId: z.string(),
  name: z.string(),
  outcome: z.enum(['ok', 'error']),
  result: z.unknown(),
  replayed: z.boolean(),
});

export const AgentAssetChunkSchema = z.strictObject({
  assetId: z.string(),
  mediaType: z.string(),
  offset: z.number().int(),
  nextOffset: z.number().int(),
  totalBytes: z.number().int(),
  eof: z.boolean(),
  text: z.string(),
});

export const AgentCompletionSchema = z.strictObject({ run: RunViewSchema });

export const AgentReleaseSchema = z.strictObject({ released: z.literal(true), abandoned: z.boolean() });

/**
 * ATP-26..ATP-30: a person's answer in the reference's shape, mapped onto the run's pending
 * questions and answers (src/service/runs/answerRun.ts). Exactly one of: the complete answer array,
 * one confirmation, or `formCancelled` (the client's form was dismissed: the run keeps waiting).
 */
export const HumanAnswerRequestSchema = z
  .strictObject({
    expected_version: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
    answers: z
      .array(
        z
          .strictObject({
            questionId: z.string().min(1).max(200),
            isSkipped: z.boolean(),
            answer: z.json().optional(),
          })
          .refine((a) => a.isSkipped === (a.answer === undefined), {
            message: 'give an answer, or isSkipped: true without one',
            path: ['answer'],
          }),
      )
      .min(1)
      .max(32)
      .optional(),
    confirmation: z
      .strictObject({
        questionId: z.string().min(1).max(200),
        isConfirmed: z.boolean(),
        feedback: z.string().max(4000).optional(),
      })
      .optional(),
    formCancelled: z.literal(true).optional(),
  })
  .refine((r) => [r.answers, r.confirmation, r.formCancelled].filter((v) => v !== undefined).length === 1, {
    message: 'give exactly one of answers, confirmation or formCancelled',
    path: ['answers'],
  });
export type HumanAnswerRequest = z.infer<typeof HumanAnswerRequestSchema>;
