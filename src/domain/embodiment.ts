/**
 * The embodiment's durable state (docs/spec/shared-live-room-requirements.md MC-01..MC-15, M-03,
 * M-04; docs/embodiment.md): the subjects a source embodies, the member leasing each, the
 * workflows members start and the actions and controls queued for the connector. Pure data;
 * storage in src/store/embodimentPort.ts. Ids have the action lane's id format (16-128 of
 * A-Za-z0-9._:-), so they pass the connector's schema unchanged.
 */

/** MC-15 kinds the reference connector executes on flying-squid (D-10); connectors/minecraft/src/actionWire.ts. */
export const EXECUTABLE_ACTION_KINDS = [
  'navigate_to',
  'look_at',
  'walk',
  'jump',
  'hotbar_select',
  'equip',
  'follow',
  'mine',
  'place',
  'interact',
] as const;
export type ExecutableActionKind = (typeof EXECUTABLE_ACTION_KINDS)[number];
/** D-11: the world-mutating kinds, handed out only with a consumed runtime approval receipt. */
export const WORLD_MUTATING_KINDS: readonly ExecutableActionKind[] = ['mine', 'place', 'interact', 'equip'];

export const WORKFLOW_STATUSES = ['running', 'completed', 'blocked', 'failed', 'stopping', 'stopped'] as const;
export type WorkflowStatus = (typeof WORKFLOW_STATUSES)[number];
/** A workflow in one of these is over: no action of it is handed out again. */
export const ENDED_WORKFLOW_STATUSES: readonly WorkflowStatus[] = ['completed', 'failed', 'stopped'];
/** A workflow in one of these still holds its subject: one at a time per subject. */
export const OPEN_WORKFLOW_STATUSES: readonly WorkflowStatus[] = ['running', 'blocked', 'stopping'];

/** `waiting`: a later step of a multi-step workflow, queued once the step before it completes. */
export const ACTION_STATUSES = ['waiting', 'queued', 'delivered', 'completed', 'blocked', 'failed', 'stopped'] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];
export const CONTROL_STATUSES = ['queued', 'delivered', 'stopped', 'failed'] as const;
export type ControlStatus = (typeof CONTROL_STATUSES)[number];
export type ConnectorControl = 'cancel' | 'emergency_stop';

export const EMBODIMENT_LIMITS = {
  /** A member's hold on a subject; each accepted action renews it (MC-09 subject conflict). */
  leaseMs: 10 * 60_000,
  /** The connector gives up on an action not done by then (actionWire `deadline_at`). */
  actionDeadlineMs: 60_000,
  /** Subjects listed per room, and open workflows shown on the console's room page. */
  listMax: 50,
  /** Steps of one workflow (`actions`): each waits for the one before it. */
  maxSteps: 8,
} as const;

export interface EnvironmentSubjectRecord {
  /** Opaque and server-made: never the environment-native player name or UUID (MC-08, MC-09). */
  readonly subjectRef: string;
  readonly sourceId: string;
  readonly roomId: string;
  /** The source's owner hash (subject access). */
  readonly ownerHash: string;
  /** SHA-256 of `source id + player name`: finds the subject again without storing the name. */
  readonly playerKey: string;
  readonly holderAccountId: string | null;
  readonly leaseExpiresAt: number | null;
  readonly createdAt: number;
}

export interface WorkflowRecord {
  readonly workflowRef: string;
  readonly roomId: string;
  readonly sourceId: string;
  readonly subjectRef: string;
  readonly accountId: string;
  /** The acting member's owner hash (subject access). */
  readonly ownerHash: string;
  readonly status: WorkflowStatus;
  readonly reason: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface ActionRecord {
  readonly actionId: string;
  readonly workflowRef: string;
  readonly sourceId: string;
  readonly ownerHash: string;
  /** The exact typed action as JSON (its kind's strict schema). */
  readonly actionJson: string;
  readonly status: ActionStatus;
  readonly reason: string | null;
  /** The connector's postcondition as JSON, once answered. */
  readonly postconditionJson: string | null;
  /** The runtime approval that admitted a world-mutating action (D-11). */
  readonly approvalId: string | null;
  /** Its place in the workflow, from 0; a later step waits until the one before it completes. */
  readonly step: number;
  readonly issuedAt: number;
  readonly deadlineAt: number;
  readonly answeredAt: number | null;
}

export interface ControlRecord {
  readonly controlId: string;
  readonly workflowRef: string;
  readonly sourceId: string;
  readonly ownerHash: string;
  readonly control: ConnectorControl;
  readonly status: ControlStatus;
  readonly postconditionJson: string | null;
  readonly issuedAt: number;
  readonly answeredAt: number | null;
}
