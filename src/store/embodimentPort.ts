import type {
  ActionRecord,
  ActionStatus,
  ControlRecord,
  ControlStatus,
  EnvironmentSubjectRecord,
  WorkflowRecord,
  WorkflowStatus,
} from '../domain/embodiment.js';

/**
 * The embodiment in the storage port (UnitOfWork.embodiment; docs/embodiment.md). Every state
 * change is one conditional UPDATE, so of two concurrent lease takers, answers or transitions
 * exactly one changes the row.
 */
export interface EmbodimentRepository {
  /** Inserts the subject unless one with its (source, player key) exists; answers the stored one. */
  ensureSubject(subject: EnvironmentSubjectRecord): Promise<EnvironmentSubjectRecord>;
  getSubject(subjectRef: string): Promise<EnvironmentSubjectRecord | undefined>;
  listSubjects(roomId: string, limit: number): Promise<EnvironmentSubjectRecord[]>;
  /** Takes or renews the lease: free, expired or already this account's; false when another holds it. */
  takeLease(subjectRef: string, accountId: string, at: number, expiresAt: number): Promise<boolean>;
  releaseLease(subjectRef: string, accountId: string): Promise<boolean>;
  /** Drops every lease this account holds in the room (the member was removed or made an observer); answers how many. */
  releaseMemberLeases(roomId: string, accountId: string): Promise<number>;

  insertWorkflow(workflow: WorkflowRecord): Promise<void>;
  getWorkflow(workflowRef: string): Promise<WorkflowRecord | undefined>;
  /** The subject's open (running, blocked or stopping) workflow, if any: there is at most one. */
  openWorkflowOf(subjectRef: string): Promise<WorkflowRecord | undefined>;
  /** The room's open workflows, most recently changed first (the console's manual override). */
  listOpenWorkflows(roomId: string, limit: number): Promise<WorkflowRecord[]>;
  /** Moves a workflow from one of `from` to `to`; false when it was in none of them. */
  moveWorkflow(
    workflowRef: string,
    from: readonly WorkflowStatus[],
    to: WorkflowStatus,
    reason: string | null,
    at: number,
  ): Promise<boolean>;

  insertAction(action: ActionRecord): Promise<void>;
  getAction(actionId: string): Promise<ActionRecord | undefined>;
  listActions(workflowRef: string): Promise<ActionRecord[]>;
  /** The binding's queued or delivered actions of running workflows, oldest first; queued ones become delivered. */
  takeActions(sourceId: string, at: number, limit: number): Promise<ActionRecord[]>;
  /** Answers an open (queued or delivered) action once; false otherwise. */
  answerAction(
    actionId: string,
    status: Exclude<ActionStatus, 'queued' | 'delivered'>,
    reason: string | null,
    postconditionJson: string | null,
    at: number,
  ): Promise<boolean>;
  /** Ends the workflow's waiting steps with it (status and reason), when the workflow ends before them. */
  settleWaitingSteps(
    workflowRef: string,
    status: Extract<ActionStatus, 'failed' | 'stopped'>,
    reason: string,
    at: number,
  ): Promise<void>;
  /** Re-queues an open or blocked action (resume) with a fresh deadline; false otherwise. */
  requeueAction(actionId: string, at: number, deadlineAt: number): Promise<boolean>;
  /** Queues the workflow's lowest waiting step with a fresh deadline; false when none waits. */
  queueNextStep(workflowRef: string, at: number, deadlineAt: number): Promise<boolean>;

  insertControl(control: ControlRecord): Promise<void>;
  getControl(controlId: string): Promise<ControlRecord | undefined>;
  listControls(workflowRef: string): Promise<ControlRecord[]>;
  /** The binding's queued or delivered controls, oldest first; queued ones become delivered. */
  takeControls(sourceId: string, at: number, limit: number): Promise<ControlRecord[]>;
  answerControl(
    controlId: string,
    status: Extract<ControlStatus, 'stopped' | 'failed'>,
    postconditionJson: string | null,
    at: number,
  ): Promise<boolean>;
}
