import { NON_AUTHORITY_FLAGS } from '../../src/api/flags.js';
import { field } from '../deploymentProbe/restCall.js';

/**
 * Judges of the room facade's answers (docs/spec/shared-live-room-requirements.md §4, §5, §22).
 * Receipt schemas are the [ref] names `helix.shared_live_room.<kind>_receipt.v1`. Where the
 * opaque identifiers sit is the facade's [impl] choice (docs/rooms.md#rest-endpoints): a binding
 * receipt carries `binding_ref` at its top level, a room receipt the room view under `room`.
 */
export const RECEIPT_KINDS = ['list', 'inspect', 'run_bind', 'run_unbind'] as const;
export type ReceiptKind = (typeof RECEIPT_KINDS)[number];

export const receiptSchema = (kind: ReceiptKind): string => `helix.shared_live_room.${kind}_receipt.v1`;

/** SLR-07: every room receipt carries the four false-authority flags. */
export const flagProblems = (body: unknown): string[] =>
  Object.keys(NON_AUTHORITY_FLAGS)
    .filter((flag) => field(body, flag) !== false)
    .map((flag) => `${flag} is ${JSON.stringify(field(body, flag)) ?? 'missing'}, expected false`);

export const schemaProblems = (body: unknown, kind: ReceiptKind): string[] =>
  field(body, 'schema') === receiptSchema(kind)
    ? []
    : [`schema is ${JSON.stringify(field(body, 'schema')) ?? 'missing'}, expected ${receiptSchema(kind)}`];

/** The room a create or inspect receipt describes: `room.room_id`. */
export const roomIdOf = (body: unknown): string | undefined => idOf(field(body, 'room'), 'room_id');

/** A nonempty string field of the receipt, or undefined. */
export const idOf = (body: unknown, name: 'room_id' | 'binding_ref' | 'run_id'): string | undefined => {
  const value = field(body, name);
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/** WD-04: a withdrawal receipt names the opaque reference only, never the run, room or chat. */
export const unbindProblems = (body: unknown, ref: string, outcomes: readonly string[]): string[] => {
  const problems = [...schemaProblems(body, 'run_unbind'), ...flagProblems(body)];
  if (field(body, 'binding_ref') !== ref) problems.push('binding_ref is not the withdrawn reference');
  if (field(body, 'binding_status') !== 'revoked') problems.push('binding_status is not revoked');
  const outcome = field(body, 'revocation_status');
  if (typeof outcome !== 'string' || !outcomes.includes(outcome))
    problems.push(`revocation_status is ${JSON.stringify(outcome) ?? 'missing'}, expected ${outcomes.join(' or ')}`);
  const exposed = ['run_id', 'room_id', 'chat_session_id'].filter((name) => field(body, name) !== undefined);
  if (exposed.length > 0) problems.push(`the receipt exposes ${exposed.join(', ')}`);
  return problems;
};
