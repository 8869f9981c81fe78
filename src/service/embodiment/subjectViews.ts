import { z } from 'zod';

/** One row of the room's sanitized subject directory (MC-08): never a player name or UUID. */
export const SubjectViewSchema = z.strictObject({
  subject_ref: z.string(),
  environment_binding_id: z.string(),
  /** The source's label and "player": the owner's words, not the game's. */
  label: z.string(),
  held_by_you: z.boolean(),
  available: z.boolean(),
});
export type SubjectView = z.infer<typeof SubjectViewSchema>;

export const SubjectListReceiptSchema = z.strictObject({
  operation: z.literal('environment.subject.list'),
  room_id: z.string(),
  subjects: z.array(SubjectViewSchema),
  your_binding: z
    .strictObject({ subject_ref: z.string(), environment_binding_id: z.string(), lease_expires_at: z.string() })
    .nullable(),
});
export type SubjectListReceipt = z.infer<typeof SubjectListReceiptSchema>;

export const SubjectSelectReceiptSchema = z.strictObject({
  operation: z.literal('environment.subject.select'),
  room_id: z.string(),
  environment_binding_id: z.string(),
  subject_ref: z.string(),
  lease_expires_at: z.string(),
});
export type SubjectSelectReceipt = z.infer<typeof SubjectSelectReceiptSchema>;
