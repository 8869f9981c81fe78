import { z } from 'zod';
import {
  AgentAssetChunkSchema,
  AgentCallListSchema,
  AgentClaimSchema,
  AgentCompletionSchema,
  AgentReleaseSchema,
  AgentToolReceiptSchema,
  CallAgentToolRequestSchema,
  ClaimAgentCallRequestSchema,
  CompleteAgentCallRequestSchema,
  ListAgentCallsRequestSchema,
  ReadAgentAssetRequestSchema,
  ReleaseAgentCallRequestSchema,
} from '../../../api/agentTaskSchemas.js';
import { RunViewSchema } from '../../../api/outputSchemas.js';
import { IdempotencyKeySchema, RunIdSchema } from '../../../api/schemas.js';
import { HumanAnswerRequestSchema } from '../../../api/agentTaskSchemas.js';
import type { ToolDefinition } from '../toolDefinition.js';

export const AGENT_TASK_CLAIM_TOOL = 'helix_agent_task_claim';
/** The tools whose arguments carry an owned reference, hence an owner token (src/http/mcp/preflight.ts). */
export const OWNED_REF_TOOLS: ReadonlySet<string> = new Set([
  'helix_agent_task_call_tool',
  'helix_agent_task_read_asset',
  'helix_agent_task_complete',
  'helix_agent_task_release',
]);

/**
 * ATP-14: the six agent-task tools, on `/mcp` and `/mcp/codex` alike (ATP-03); the use cases are in
 * src/service/agentTasks/. Each is the run owner's: another owner's call is not found.
 */
export const AGENT_TASK_TOOLS: readonly ToolDefinition[] = [
  {
    name: 'helix_agent_task_list',
    title: 'List pending agent calls',
    description:
      'The pending agent calls of your agent_task runs (callId, turn, claimed, deadline). waitSeconds long-polls up to 25 s for one to appear.',
    operation: 'agent_task.list',
    mutation: false,
    input: ListAgentCallsRequestSchema,
    output: AgentCallListSchema,
    call: (s, p, a) => s.runs.agentTasks.list(p, a),
  },
  {
    name: AGENT_TASK_CLAIM_TOOL,
    title: 'Claim a pending agent call',
    description:
      'Claim {runId, callId} with a stable claimId you keep; returns ownedRef (with a private ownerToken) and the task: instructions, declared tools, output schema, assets. The same claimId recovers the claim; another claimant conflicts.',
    operation: 'agent_task.claim',
    mutation: true,
    input: ClaimAgentCallRequestSchema,
    output: AgentClaimSchema,
    call: (s, p, a) => s.runs.agentTasks.claim(p, a),
  },
  {
    name: 'helix_agent_task_call_tool',
    title: "Call one of the task's declared tools",
    description:
      'Run one declared tool through Helix, one at a time. Retrying a toolCallId with the same input returns its receipt; changed input conflicts; at most 256 receipts per task.',
    operation: 'agent_task.call_tool',
    mutation: true,
    input: CallAgentToolRequestSchema,
    output: AgentToolReceiptSchema,
    call: (s, p, a) => s.runs.agentTasks.callTool(p, a),
  },
  {
    name: 'helix_agent_task_read_asset',
    title: 'Read a declared task asset',
    description:
      'Read an asset the task declares, by id (never a path), at most 1 MiB per read; follow nextOffset until eof.',
    operation: 'agent_task.read_asset',
    mutation: false,
    input: ReadAgentAssetRequestSchema,
    output: AgentAssetChunkSchema,
    call: (s, p, a) => s.runs.agentTasks.readAsset(p, a),
  },
  {
    name: 'helix_agent_task_complete',
    title: 'Complete the agent task',
    description:
      "Submit the raw final JSON matching the task's outputSchema. Helix validates it, audits what it cites against this task's receipts, resumes the run and returns it: follow that run.",
    operation: 'agent_task.complete',
    mutation: true,
    input: CompleteAgentCallRequestSchema,
    output: AgentCompletionSchema,
    call: (s, p, a) => s.runs.agentTasks.complete(p, a),
  },
  {
    name: 'helix_agent_task_release',
    title: 'Release or abandon the agent task',
    description:
      'Give the claim up (the call stays pending for another claim), or with abandon: true give the task up (the turn fails; nothing else takes it over).',
    operation: 'agent_task.release',
    mutation: true,
    destructive: true,
    input: ReleaseAgentCallRequestSchema,
    output: AgentReleaseSchema,
    call: (s, p, a) => s.runs.agentTasks.release(p, a),
  },
];

/**
 * ATP-26..ATP-31: a person answers the run's pending questions in the reference's shape. It is a
 * run continue (the run tools' scope and idempotency key). ATP-31: the agent-task tools have no way
 * to answer, and a confirmation sent here by a credential that claimed or completed an agent call
 * of the run is refused (claimTurn.ts), so an agent cannot confirm on the person's behalf.
 */
export const HUMAN_ANSWER_TOOL: ToolDefinition = {
  name: 'helix_run_answer',
  title: "Answer a Helix run's pending questions",
  description:
    'For the person, not the agent: answer pending_questions with the complete array [{questionId, isSkipped, answer}] (skip only where skippable), or a confirmation {questionId, isConfirmed, feedback} (refused as confirmation_requires_person from a credential that worked an agent call of this run); formCancelled: true keeps the run waiting. Runs the next turn.',
  operation: 'run.continue',
  mutation: true,
  input: z.strictObject({
    run_id: RunIdSchema,
    idempotency_key: IdempotencyKeySchema,
    request: HumanAnswerRequestSchema,
  }),
  output: RunViewSchema,
  call: (s, p, a) =>
    s.runs.answer(
      p,
      String(a.run_id),
      typeof a.idempotency_key === 'string' ? a.idempotency_key : undefined,
      a.request,
    ),
};

/** What an agent-task catalog publishes: the six tools for the agent, and the person's answer tool. */
export const AGENT_TASK_SURFACE: readonly ToolDefinition[] = [...AGENT_TASK_TOOLS, HUMAN_ANSWER_TOOL];

/**
 * ATP-02: the Codex presentation profile. Same handlers and contracts; the descriptions speak to
 * Codex's loop (one tool at a time, keep the claimId and ownerToken in the session, stop at the
 * returned run) instead of to a generic IDE agent.
 */
const CODEX_DESCRIPTIONS: Readonly<Record<string, string>> = {
  helix_agent_task_list:
    'Codex: call with waitSeconds 25 to wait for Helix to hand you a turn. Each entry is one pending agent call; pick an unclaimed one.',
  [AGENT_TASK_CLAIM_TOOL]:
    'Codex: generate one claimId per call (e.g. codex-<uuid>) and reuse it if you reconnect. Read task.instructions first; use only task.tools, through helix_agent_task_call_tool. Never print the ownerToken.',
  helix_agent_task_call_tool:
    'Codex: run exactly one declared tool, wait for its receipt, then decide the next step. Cite only refs that appear in receipts of this task.',
  helix_agent_task_read_asset: 'Codex: read task.md for the brief and output-schema.json for the shape to submit.',
  helix_agent_task_complete:
    'Codex: submit the final JSON object once, with text citing refs from your receipts. An invalid_request names the fields to fix; then submit again. Report the returned run to the user and stop.',
  helix_agent_task_release:
    'Codex: release if you must stop working this call; abandon only when the task cannot be done.',
};

export const codexProfile = (tools: readonly ToolDefinition[]): readonly ToolDefinition[] =>
  tools.map((tool) => {
    const description = CODEX_DESCRIPTIONS[tool.name];
    return description === undefined ? tool : { ...tool, description };
  });
