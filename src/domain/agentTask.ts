/**
 * The agent-task protocol (docs/spec/agent-task-mcp-reference.md; docs/agent-tasks.md): an external
 * agent claims the pending agent call of a turn, works it with the turn's declared tools, and
 * submits the final JSON, which Helix audits like any executor's candidate.
 */

/** Who runs a run's turns: Helix's own executor, or an external agent over the agent-task tools. */
export const TURN_EXECUTORS = ['helix', 'agent_task'] as const;
export type TurnExecutorKind = (typeof TURN_EXECUTORS)[number];

/** The `runtime_provider` (and candidate writer) of a run whose turns an external agent works. */
export const AGENT_TASK_PROVIDER = 'helix.agent_task';

/** ATP-21: each task retains at most 256 receipts. */
export const MAX_AGENT_RECEIPTS = 256;
/** ATP-23: at most 1 MiB per asset read. */
export const MAX_ASSET_READ_BYTES = 1024 * 1024;

/**
 * ATP-37: a restart does not restore an active agent task; the turn fails with this code (the
 * reference's `RUN_INTERRUPTED`) and the run goes back to `waiting`.
 */
export const RUN_INTERRUPTED = 'run_interrupted';
/** The agent gave the task up (release with `abandon`): the turn fails, the run waits for another continue. */
export const AGENT_TASK_ABANDONED = 'agent_task_abandoned';

/** An agent-task run continued on a process that hosts no agent tasks: the turn fails, nothing falls back. */
export const AGENT_TASKS_UNAVAILABLE = 'agent_tasks_unavailable';

/** The owner token's visible prefix, so credential scans recognize it (src/domain/credentialShape.ts). */
export const OWNER_TOKEN_PREFIX = 'hlxown_';

/** Caller-chosen identities (claimId, toolCallId): printable, bounded, never credential-shaped. */
export const AGENT_IDENTITY_PATTERN = /^[A-Za-z0-9._:-]{1,200}$/;
/** Declared asset ids: a name, never a path. */
export const ASSET_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}(\.[a-z0-9]{1,8})?$/;
