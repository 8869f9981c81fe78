/** Status vocabularies of `helix.agent_run.v1`; each list is the single source of its type. */
export const LIFECYCLE_STATUSES = ['queued', 'running', 'waiting', 'completed', 'failed', 'cancelled'] as const;
export type LifecycleStatus = (typeof LIFECYCLE_STATUSES)[number];

export const COMPLETION_STATUSES = [
  'pending',
  'completed',
  'needs_more_evidence',
  'needs_input',
  'conflict_detected',
  'blocked',
  'failed',
  'budget_exhausted',
  'cancelled',
] as const;
export type CompletionStatus = (typeof COMPLETION_STATUSES)[number];

export const TERMINAL_AUTHORITY_STATUSES = ['not_evaluated', 'authorized', 'not_authorized', 'not_required'] as const;
export type TerminalAuthorityStatus = (typeof TERMINAL_AUTHORITY_STATUSES)[number];

/** What the outer client loop should do next; derived from the statuses, never stored alone. */
export const NEXT_ACTIONS = ['continue', 'answer_pending_questions', 'broaden_scope', 'wait_for_turn', 'stop'] as const;
export type NextAction = (typeof NEXT_ACTIONS)[number];

const TERMINAL_LIFECYCLES: ReadonlySet<LifecycleStatus> = new Set(['completed', 'failed', 'cancelled']);

export const isTerminalLifecycle = (status: LifecycleStatus): boolean => TERMINAL_LIFECYCLES.has(status);
