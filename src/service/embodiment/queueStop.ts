import { randomBytes } from 'node:crypto';
import {
  type ConnectorControl,
  EMBODIMENT_LIMITS,
  ENDED_WORKFLOW_STATUSES,
  type WorkflowRecord,
} from '../../domain/embodiment.js';
import type { UnitOfWork } from '../../store/port.js';

/**
 * M-03: queues a cancel or emergency stop for the workflow's connector (controls are handed out
 * before any action) and moves the workflow to `stopping`; it becomes `stopped` only when the
 * connector reports a verified stationary stop. An ended workflow queues nothing: answers null.
 */
export const queueStop = async (
  uow: UnitOfWork,
  workflow: WorkflowRecord,
  control: ConnectorControl,
  now: number,
): Promise<string | null> => {
  if (ENDED_WORKFLOW_STATUSES.includes(workflow.status)) return null;
  const controlId = `ctl_${randomBytes(16).toString('hex')}`;
  await uow.embodiment.insertControl({
    controlId,
    workflowRef: workflow.workflowRef,
    sourceId: workflow.sourceId,
    ownerHash: workflow.ownerHash,
    control,
    status: 'queued',
    postconditionJson: null,
    issuedAt: now,
    answeredAt: null,
  });
  await uow.embodiment.moveWorkflow(workflow.workflowRef, ['running', 'blocked', 'stopping'], 'stopping', control, now);
  return controlId;
};

/**
 * MC-12: a member removed from the room or made an observer may no longer drive a player. In the
 * same transaction as the role change: every lease the member holds in the room is dropped (the
 * subject is free for others at once) and each of their open workflows gets an Emergency Stop.
 * Answers how many workflows were stopped.
 */
export const withdrawMemberEmbodiment = async (
  uow: UnitOfWork,
  roomId: string,
  accountId: string,
  now: number,
): Promise<number> => {
  await uow.embodiment.releaseMemberLeases(roomId, accountId);
  const open = (await uow.embodiment.listOpenWorkflows(roomId, EMBODIMENT_LIMITS.listMax)).filter(
    (w) => w.accountId === accountId && w.status !== 'stopping',
  );
  for (const workflow of open) await queueStop(uow, workflow, 'emergency_stop', now);
  return open.length;
};
