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

  insertWorkflow(workflow: WorkflowRecord): Promise<void>;
  getWorkflow(workflowRef: string): Promise<WorkflowRecord | undefined>;
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
  /** Re-queues an open or blocked action (resume); false otherwise. */
  requeueAction(actionId: string, at: number): Promise<boolean>;

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
