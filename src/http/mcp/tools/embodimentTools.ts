import { z } from 'zod';
import { ActionSchema } from '../../../api/environmentActionSchemas.js';
import { EMBODIMENT_LIMITS } from '../../../domain/embodiment.js';
import { RoomIdSchema } from '../../../api/roomSchemas.js';
import { IdempotencyKeySchema } from '../../../api/schemas.js';
import { listSubjects } from '../../../service/embodiment/listSubjects.js';
import { playerAction } from '../../../service/embodiment/playerAction.js';
import { selectSubject } from '../../../service/embodiment/selectSubject.js';
import { SubjectListReceiptSchema, SubjectSelectReceiptSchema } from '../../../service/embodiment/subjectViews.js';
import { workflowControl } from '../../../service/embodiment/workflowControl.js';
import { workflowStatus } from '../../../service/embodiment/workflowStatus.js';
import {
  PlayerActionReceiptSchema,
  WorkflowControlReceiptSchema,
  WorkflowStatusReceiptSchema,
} from '../../../service/embodiment/workflowViews.js';
import { roomsOf, type ToolDefinition } from '../toolDefinition.js';

/** The tool whose `approval_receipt` is the one place a runtime approval receipt is admitted (../preflight.ts). */
export const PLAYER_ACTION_TOOL = 'helix_minecraft_player_action';

const roomId = RoomIdSchema.describe('The room_id from helix_room_list.');
const workflowRef = z.string().min(1).max(320).describe('The workflow_ref of helix_minecraft_player_action.');

/**
 * The embodiment tools of `/mcp` (docs/spec/shared-live-room-requirements.md §12 MC-01..MC-05;
 * docs/embodiment.md): "Your identity in this environment" and the typed player actions. Each
 * calls one use case of src/service/embodiment/; no connector credential or player name ever
 * appears in their arguments or results (MC-07, MC-09).
 */
export const EMBODIMENT_TOOLS: readonly ToolDefinition[] = [
  {
    name: 'helix_environment_subject_list',
    title: 'Your identity in this environment',
    description:
      'The room’s environment subjects (the players its connectors embody), by opaque subject_ref, and the one you hold, if any.',
    operation: 'environment.subject_list',
    mutation: false,
    input: z.strictObject({ room_id: roomId }),
    output: SubjectListReceiptSchema,
    call: (s, p, a) => listSubjects(roomsOf(s), p, a.room_id),
  },
  {
    name: 'helix_environment_subject_select',
    title: 'Select your identity in this environment',
    description:
      'Hold one subject of the room (an exact, current subject_ref from helix_environment_subject_list) so your actions drive it. One member per subject; the hold expires unless renewed by actions.',
    operation: 'environment.subject_select',
    mutation: true,
    input: z.strictObject({
      room_id: roomId,
      environment_binding_id: z.string().max(64).describe('The environment_binding_id listed with the subject.'),
      subject_ref: z.string().max(64).describe('The exact subject_ref listed.'),
    }),
    output: SubjectSelectReceiptSchema,
    call: (s, p, a) => selectSubject(roomsOf(s), p, a),
  },
  {
    name: PLAYER_ACTION_TOOL,
    title: 'Act as your Minecraft player',
    description:
      'Queue one typed action (navigate_to, look_at, walk, jump, hotbar_select, equip, follow, mine, place, interact), or up to 8 as `actions` run in order, for the player you selected; answers a running workflow to follow with helix_minecraft_workflow_status. One workflow at a time per player. mine, place, interact and equip need approval_receipt from the runtime approval host, signed for the exact `action` or `actions`. No chat or commands.',
    operation: 'minecraft.player_action',
    mutation: true,
    input: z.strictObject({
      room_id: roomId,
      idempotency_key: IdempotencyKeySchema.describe('Reuse only to retry the same action.'),
      environment_label: z.string().min(1).max(120).optional().describe('The source label, when you hold several.'),
      action: ActionSchema.optional().describe('One typed action; give this or `actions`.'),
      actions: z
        .array(ActionSchema)
        .min(1)
        .max(EMBODIMENT_LIMITS.maxSteps)
        .optional()
        .describe('Steps run in order, each once the one before it completed; give this or `action`.'),
      approval_receipt: z
        .string()
        .max(16_384)
        .optional()
        .describe('A runtime approval receipt for this exact `action` or `actions`.'),
    }),
    output: PlayerActionReceiptSchema,
    call: (s, p, a) => playerAction(roomsOf(s), p, a),
  },
  {
    name: 'helix_minecraft_workflow_status',
    title: 'Follow a player workflow',
    description:
      'Your workflow’s status (running, completed, blocked, failed, stopping, stopped) with each action’s verified postcondition.',
    operation: 'minecraft.workflow_status',
    mutation: false,
    input: z.strictObject({ room_id: roomId, workflow_ref: workflowRef }),
    output: WorkflowStatusReceiptSchema,
    call: (s, p, a) => workflowStatus(roomsOf(s), p, a),
  },
  {
    name: 'helix_minecraft_workflow_control',
    title: 'Resume, cancel or emergency-stop a workflow',
    description:
      'cancel or emergency_stop: the player stops; the workflow reads stopped only after the connector confirms it stationary. Your own workflow, or any in a room you own; a stop is never refused for consent or the feature lock. resume: re-queue your blocked workflow.',
    operation: 'minecraft.workflow_control',
    mutation: true,
    input: z.strictObject({
      room_id: roomId,
      workflow_ref: workflowRef,
      control: z.enum(['resume', 'cancel', 'emergency_stop']),
      reason: z.string().max(1_000).optional(),
    }),
    output: WorkflowControlReceiptSchema,
    call: (s, p, a) => workflowControl(roomsOf(s), p, a),
  },
];
