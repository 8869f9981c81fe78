import { z } from 'zod';
import { type Action, PostconditionSchema } from '../../api/environmentActionSchemas.js';
import {
  type ActionRecord,
  type ControlRecord,
  WORKFLOW_STATUSES,
  type WorkflowRecord,
} from '../../domain/embodiment.js';

/** MC-13: every action or control product is an observation for re-entry, never an answer. */
const reentry = { answer_authority: z.literal(false), terminal_eligible: z.literal(false) };

const ActionViewSchema = z.strictObject({
  action_id: z.string(),
  /** Its place in the workflow, from 0. */
  step: z.number().int(),
  kind: z.string(),
  status: z.string(),
  reason: z.string().nullable(),
  postcondition: PostconditionSchema.nullable(),
  /** True only when the connector reported `completed` and its postcondition verified (MC-12). */
  verified: z.boolean(),
  answered_at: z.string().nullable(),
});

const ControlViewSchema = z.strictObject({
  control_id: z.string(),
  control: z.string(),
  status: z.string(),
  postcondition: PostconditionSchema.nullable(),
  answered_at: z.string().nullable(),
});

export const WorkflowStatusReceiptSchema = z.strictObject({
  operation: z.literal('minecraft.player.workflow.status'),
  room_id: z.string(),
  workflow_ref: z.string(),
  subject_ref: z.string(),
  status: z.enum(WORKFLOW_STATUSES),
  reason: z.string().nullable(),
  actions: z.array(ActionViewSchema),
  controls: z.array(ControlViewSchema),
  ...reentry,
});
export type WorkflowStatusReceipt = z.infer<typeof WorkflowStatusReceiptSchema>;

export const PlayerActionReceiptSchema = z.strictObject({
  operation: z.literal('minecraft.player.action'),
  room_id: z.string(),
  workflow_ref: z.string(),
  /** The first step's action; the workflow status lists every step's. */
  action_id: z.string(),
  subject_ref: z.string(),
  /** The first step's kind. */
  kind: z.string(),
  /** How many steps the workflow runs, in order. */
  steps: z.number().int(),
  status: z.enum(WORKFLOW_STATUSES),
  approval_consumed: z.boolean(),
  ...reentry,
});
export type PlayerActionReceipt = z.infer<typeof PlayerActionReceiptSchema>;

export const WorkflowControlReceiptSchema = z.strictObject({
  operation: z.literal('minecraft.player.workflow.control'),
  room_id: z.string(),
  workflow_ref: z.string(),
  control: z.enum(['resume', 'cancel', 'emergency_stop']),
  control_id: z.string().nullable(),
  status: z.enum(WORKFLOW_STATUSES),
  ...reentry,
});
export type WorkflowControlReceipt = z.infer<typeof WorkflowControlReceiptSchema>;

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const parsed = (json: string | null) => (json === null ? null : PostconditionSchema.parse(JSON.parse(json)));

export const workflowStatusReceipt = (
  workflow: WorkflowRecord,
  actions: readonly ActionRecord[],
  controls: readonly ControlRecord[],
): WorkflowStatusReceipt => ({
  operation: 'minecraft.player.workflow.status',
  room_id: workflow.roomId,
  workflow_ref: workflow.workflowRef,
  subject_ref: workflow.subjectRef,
  status: workflow.status,
  reason: workflow.reason,
  actions: actions.map((a) => ({
    action_id: a.actionId,
    step: a.step,
    kind: (JSON.parse(a.actionJson) as Action).kind,
    status: a.status,
    reason: a.reason,
    postcondition: parsed(a.postconditionJson),
    verified: a.status === 'completed',
    answered_at: iso(a.answeredAt),
  })),
  controls: controls.map((c) => ({
    control_id: c.controlId,
    control: c.control,
    status: c.status,
    postcondition: parsed(c.postconditionJson),
    answered_at: iso(c.answeredAt),
  })),
  answer_authority: false,
  terminal_eligible: false,
});
