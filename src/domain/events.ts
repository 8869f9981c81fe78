/** Event kinds of `helix.agent_run.event.v1`. Every state change writes its events in the same transaction. */
export const EVENT_KINDS = [
  'run.started',
  'run.recovered',
  'run.continuation_received',
  'run.evidence_reentered',
  'run.issue_resolved',
  'run.input_requested',
  'run.terminal_authority_evaluated',
  'run.waiting',
  'run.completed',
  'run.blocked',
  'run.failed',
  'run.cancelled',
  'run.budget_exhausted',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** An event before it is numbered; the store assigns the per-run `seq`. */
export interface NewRunEvent {
  readonly kind: EventKind;
  readonly data: Readonly<Record<string, unknown>>;
}

export interface RunEvent extends NewRunEvent {
  readonly runId: string;
  readonly seq: number;
  readonly version: number;
  readonly createdAt: number;
}
