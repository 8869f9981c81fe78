import type { Kysely, Selectable } from 'kysely';
import {
  type ActionRecord,
  type ActionStatus,
  type ConnectorControl,
  type ControlRecord,
  type ControlStatus,
  type EnvironmentSubjectRecord,
  OPEN_WORKFLOW_STATUSES,
  type WorkflowRecord,
  type WorkflowStatus,
} from '../../domain/embodiment.js';
import type { EmbodimentRepository } from '../embodimentPort.js';
import type {
  EnvironmentActionsTable,
  EnvironmentControlsTable,
  EnvironmentSubjectsTable,
  EnvironmentWorkflowsTable,
  HelixDatabase,
} from '../schema.js';
import { toMillis, toMillisOrNull } from './columns.js';

const subjectFromRow = (row: Selectable<EnvironmentSubjectsTable>): EnvironmentSubjectRecord => ({
  subjectRef: row.subject_ref,
  sourceId: row.source_id,
  roomId: row.room_id,
  ownerHash: row.owner_hash,
  playerKey: row.player_key,
  holderAccountId: row.holder_account_id,
  leaseExpiresAt: toMillisOrNull(row.lease_expires_at),
  createdAt: toMillis(row.created_at),
});

const workflowFromRow = (row: Selectable<EnvironmentWorkflowsTable>): WorkflowRecord => ({
  workflowRef: row.workflow_ref,
  roomId: row.room_id,
  sourceId: row.source_id,
  subjectRef: row.subject_ref,
  accountId: row.account_id,
  ownerHash: row.owner_hash,
  status: row.status as WorkflowStatus,
  reason: row.reason,
  createdAt: toMillis(row.created_at),
  updatedAt: toMillis(row.updated_at),
});

const actionFromRow = (row: Selectable<EnvironmentActionsTable>): ActionRecord => ({
  actionId: row.action_id,
  workflowRef: row.workflow_ref,
  sourceId: row.source_id,
  ownerHash: row.owner_hash,
  actionJson: row.action_json,
  status: row.status as ActionStatus,
  reason: row.reason,
  postconditionJson: row.postcondition_json,
  approvalId: row.approval_id,
  step: Number(row.step),
  issuedAt: toMillis(row.issued_at),
  deadlineAt: toMillis(row.deadline_at),
  answeredAt: toMillisOrNull(row.answered_at),
});

const controlFromRow = (row: Selectable<EnvironmentControlsTable>): ControlRecord => ({
  controlId: row.control_id,
  workflowRef: row.workflow_ref,
  sourceId: row.source_id,
  ownerHash: row.owner_hash,
  control: row.control as ConnectorControl,
  status: row.status as ControlStatus,
  postconditionJson: row.postcondition_json,
  issuedAt: toMillis(row.issued_at),
  answeredAt: toMillisOrNull(row.answered_at),
});

const changed = (result: { numUpdatedRows: bigint }): boolean => result.numUpdatedRows >= 1n;
const OPEN: readonly ActionStatus[] = ['queued', 'delivered'];

type Part<K extends keyof EmbodimentRepository> = Pick<EmbodimentRepository, K>;

const subjectRecords = (
  db: Kysely<HelixDatabase>,
): Part<'ensureSubject' | 'getSubject' | 'listSubjects' | 'takeLease' | 'releaseLease' | 'releaseMemberLeases'> => {
  const byKey = (playerKey: string) =>
    db.selectFrom('helix_environment_subjects').selectAll().where('player_key', '=', playerKey).executeTakeFirst();
  return {
    async ensureSubject(s) {
      const existing = await byKey(s.playerKey);
      if (existing !== undefined) return subjectFromRow(existing);
      await db
        .insertInto('helix_environment_subjects')
        .values({
          subject_ref: s.subjectRef,
          source_id: s.sourceId,
          room_id: s.roomId,
          owner_hash: s.ownerHash,
          player_key: s.playerKey,
          holder_account_id: s.holderAccountId,
          lease_expires_at: s.leaseExpiresAt,
          created_at: s.createdAt,
        })
        .onConflict((oc) => oc.column('player_key').doNothing())
        .execute();
      const stored = await byKey(s.playerKey);
      return stored === undefined ? s : subjectFromRow(stored);
    },
    async getSubject(subjectRef) {
      const row = await db
        .selectFrom('helix_environment_subjects')
        .selectAll()
        .where('subject_ref', '=', subjectRef)
        .executeTakeFirst();
      return row === undefined ? undefined : subjectFromRow(row);
    },
    async listSubjects(roomId, limit) {
      const rows = await db
        .selectFrom('helix_environment_subjects')
        .selectAll()
        .where('room_id', '=', roomId)
        .orderBy('created_at')
        .orderBy('subject_ref')
        .limit(limit)
        .execute();
      return rows.map(subjectFromRow);
    },
    async takeLease(subjectRef, accountId, at, expiresAt) {
      const result = await db
        .updateTable('helix_environment_subjects')
        .set({ holder_account_id: accountId, lease_expires_at: expiresAt })
        .where('subject_ref', '=', subjectRef)
        .where((eb) =>
          eb.or([
            eb('holder_account_id', 'is', null),
            eb('holder_account_id', '=', accountId),
            eb('lease_expires_at', '<=', at),
          ]),
        )
        .executeTakeFirst();
      return changed(result);
    },
    async releaseMemberLeases(roomId, accountId) {
      const result = await db
        .updateTable('helix_environment_subjects')
        .set({ holder_account_id: null, lease_expires_at: null })
        .where('room_id', '=', roomId)
        .where('holder_account_id', '=', accountId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    async releaseLease(subjectRef, accountId) {
      const result = await db
        .updateTable('helix_environment_subjects')
        .set({ holder_account_id: null, lease_expires_at: null })
        .where('subject_ref', '=', subjectRef)
        .where('holder_account_id', '=', accountId)
        .executeTakeFirst();
      return changed(result);
    },
  };
};

const workflowRecords = (
  db: Kysely<HelixDatabase>,
): Part<'insertWorkflow' | 'getWorkflow' | 'openWorkflowOf' | 'listOpenWorkflows' | 'moveWorkflow'> => ({
  async insertWorkflow(w) {
    await db
      .insertInto('helix_environment_workflows')
      .values({
        workflow_ref: w.workflowRef,
        room_id: w.roomId,
        source_id: w.sourceId,
        subject_ref: w.subjectRef,
        account_id: w.accountId,
        owner_hash: w.ownerHash,
        status: w.status,
        reason: w.reason,
        created_at: w.createdAt,
        updated_at: w.updatedAt,
      })
      .execute();
  },
  async getWorkflow(workflowRef) {
    const row = await db
      .selectFrom('helix_environment_workflows')
      .selectAll()
      .where('workflow_ref', '=', workflowRef)
      .executeTakeFirst();
    return row === undefined ? undefined : workflowFromRow(row);
  },
  async openWorkflowOf(subjectRef) {
    const row = await db
      .selectFrom('helix_environment_workflows')
      .selectAll()
      .where('subject_ref', '=', subjectRef)
      .where('status', 'in', [...OPEN_WORKFLOW_STATUSES])
      .orderBy('created_at')
      .limit(1)
      .executeTakeFirst();
    return row === undefined ? undefined : workflowFromRow(row);
  },
  async listOpenWorkflows(roomId, limit) {
    const rows = await db
      .selectFrom('helix_environment_workflows')
      .selectAll()
      .where('room_id', '=', roomId)
      .where('status', 'in', [...OPEN_WORKFLOW_STATUSES])
      .orderBy('updated_at', 'desc')
      .orderBy('workflow_ref')
      .limit(limit)
      .execute();
    return rows.map(workflowFromRow);
  },
  async moveWorkflow(workflowRef, from, to, reason, at) {
    if (from.length === 0) return false;
    const result = await db
      .updateTable('helix_environment_workflows')
      .set({ status: to, reason, updated_at: at })
      .where('workflow_ref', '=', workflowRef)
      .where('status', 'in', [...from])
      .executeTakeFirst();
    return changed(result);
  },
});

const actionRecords = (
  db: Kysely<HelixDatabase>,
): Part<'insertAction' | 'getAction' | 'listActions' | 'takeActions' | 'answerAction'> => ({
  async insertAction(a) {
    await db
      .insertInto('helix_environment_actions')
      .values({
        action_id: a.actionId,
        workflow_ref: a.workflowRef,
        source_id: a.sourceId,
        owner_hash: a.ownerHash,
        action_json: a.actionJson,
        status: a.status,
        reason: a.reason,
        postcondition_json: a.postconditionJson,
        approval_id: a.approvalId,
        step: a.step,
        issued_at: a.issuedAt,
        deadline_at: a.deadlineAt,
        answered_at: a.answeredAt,
      })
      .execute();
  },
  async getAction(actionId) {
    const row = await db
      .selectFrom('helix_environment_actions')
      .selectAll()
      .where('action_id', '=', actionId)
      .executeTakeFirst();
    return row === undefined ? undefined : actionFromRow(row);
  },
  async listActions(workflowRef) {
    const rows = await db
      .selectFrom('helix_environment_actions')
      .selectAll()
      .where('workflow_ref', '=', workflowRef)
      .orderBy('step')
      .orderBy('action_id')
      .execute();
    return rows.map(actionFromRow);
  },
  async takeActions(sourceId, _at, limit) {
    const rows = await db
      .selectFrom('helix_environment_actions as a')
      .innerJoin('helix_environment_workflows as w', 'w.workflow_ref', 'a.workflow_ref')
      .selectAll('a')
      .where('a.source_id', '=', sourceId)
      .where('a.status', 'in', [...OPEN])
      .where('w.status', '=', 'running')
      .orderBy('a.issued_at')
      .orderBy('a.action_id')
      .limit(limit)
      .execute();
    const ids = rows.filter((r) => r.status === 'queued').map((r) => r.action_id);
    if (ids.length > 0)
      await db
        .updateTable('helix_environment_actions')
        .set({ status: 'delivered' })
        .where('action_id', 'in', ids)
        .where('status', '=', 'queued')
        .execute();
    return rows.map(actionFromRow);
  },
  async answerAction(actionId, status, reason, postconditionJson, at) {
    const result = await db
      .updateTable('helix_environment_actions')
      .set({ status, reason, postcondition_json: postconditionJson, answered_at: at })
      .where('action_id', '=', actionId)
      .where('status', 'in', [...OPEN])
      .executeTakeFirst();
    return changed(result);
  },
});

/** A workflow's steps: the waiting ones queued in turn, a blocked one re-queued, the rest ended with it. */
const stepRecords = (db: Kysely<HelixDatabase>): Part<'settleWaitingSteps' | 'requeueAction' | 'queueNextStep'> => ({
  async settleWaitingSteps(workflowRef, status, reason, at) {
    await db
      .updateTable('helix_environment_actions')
      .set({ status, reason, answered_at: at })
      .where('workflow_ref', '=', workflowRef)
      .where('status', '=', 'waiting')
      .execute();
  },
  async requeueAction(actionId, at, deadlineAt) {
    const result = await db
      .updateTable('helix_environment_actions')
      .set({
        status: 'queued',
        reason: null,
        postcondition_json: null,
        answered_at: null,
        issued_at: at,
        deadline_at: deadlineAt,
      })
      .where('action_id', '=', actionId)
      .where('status', 'in', ['queued', 'delivered', 'blocked'])
      .executeTakeFirst();
    return changed(result);
  },
  async queueNextStep(workflowRef, at, deadlineAt) {
    const next = await db
      .selectFrom('helix_environment_actions')
      .select('action_id')
      .where('workflow_ref', '=', workflowRef)
      .where('status', '=', 'waiting')
      .orderBy('step')
      .limit(1)
      .executeTakeFirst();
    if (next === undefined) return false;
    const result = await db
      .updateTable('helix_environment_actions')
      .set({ status: 'queued', issued_at: at, deadline_at: deadlineAt })
      .where('action_id', '=', next.action_id)
      .where('status', '=', 'waiting')
      .executeTakeFirst();
    return changed(result);
  },
});

const controlRecords = (
  db: Kysely<HelixDatabase>,
): Part<'insertControl' | 'getControl' | 'listControls' | 'takeControls' | 'answerControl'> => ({
  async insertControl(c) {
    await db
      .insertInto('helix_environment_controls')
      .values({
        control_id: c.controlId,
        workflow_ref: c.workflowRef,
        source_id: c.sourceId,
        owner_hash: c.ownerHash,
        control: c.control,
        status: c.status,
        postcondition_json: c.postconditionJson,
        issued_at: c.issuedAt,
        answered_at: c.answeredAt,
      })
      .execute();
  },
  async getControl(controlId) {
    const row = await db
      .selectFrom('helix_environment_controls')
      .selectAll()
      .where('control_id', '=', controlId)
      .executeTakeFirst();
    return row === undefined ? undefined : controlFromRow(row);
  },
  async listControls(workflowRef) {
    const rows = await db
      .selectFrom('helix_environment_controls')
      .selectAll()
      .where('workflow_ref', '=', workflowRef)
      .orderBy('issued_at')
      .orderBy('control_id')
      .execute();
    return rows.map(controlFromRow);
  },
  async takeControls(sourceId, _at, limit) {
    const rows = await db
      .selectFrom('helix_environment_controls')
      .selectAll()
      .where('source_id', '=', sourceId)
      .where('status', 'in', ['queued', 'delivered'])
      .orderBy('issued_at')
      .orderBy('control_id')
      .limit(limit)
      .execute();
    const ids = rows.filter((r) => r.status === 'queued').map((r) => r.control_id);
    if (ids.length > 0)
      await db
        .updateTable('helix_environment_controls')
        .set({ status: 'delivered' })
        .where('control_id', 'in', ids)
        .where('status', '=', 'queued')
        .execute();
    return rows.map(controlFromRow);
  },
  async answerControl(controlId, status, postconditionJson, at) {
    const result = await db
      .updateTable('helix_environment_controls')
      .set({ status, postcondition_json: postconditionJson, answered_at: at })
      .where('control_id', '=', controlId)
      .where('status', 'in', ['queued', 'delivered'])
      .executeTakeFirst();
    return changed(result);
  },
});

/** The embodiment's repository: one conditional statement per state change (src/store/embodimentPort.ts). */
export const embodimentRepository = (db: Kysely<HelixDatabase>): EmbodimentRepository => ({
  ...subjectRecords(db),
  ...workflowRecords(db),
  ...actionRecords(db),
  ...stepRecords(db),
  ...controlRecords(db),
});
