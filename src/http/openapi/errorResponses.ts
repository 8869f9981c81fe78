import { ERROR_CODES, ERROR_TABLE, type ErrorCode } from '../../domain/errors.js';
import type { JsonObject } from '../../api/jsonSchema.js';
import type { OperationDoc } from './operations.js';

/** The error codes ERROR_TABLE maps to an HTTP status: what a caller may see with that status. */
export const errorCodesWithStatus = (status: number): readonly ErrorCode[] =>
  ERROR_CODES.filter((code) => ERROR_TABLE[code].status === status);

/** Every status some error code has, ascending. */
export const ERROR_STATUSES: readonly number[] = [...new Set(ERROR_CODES.map((code) => ERROR_TABLE[code].status))].sort(
  (a, b) => a - b,
);

/**
 * The statuses an operation can fail with. Coarse on purpose: a status is listed when any code of
 * that status can reach the operation (the codes themselves are listed per status).
 */
export const errorStatusesOf = (doc: OperationDoc): readonly number[] => {
  // Any request: a refused host/origin or HTTPS (403), a limit (429), a store or server fault.
  const statuses = new Set([403, 429, 500, 503]);
  if (doc.authentication === 'none') return [...statuses].sort((a, b) => a - b);
  for (const s of [400, 401, 404, 408, 431]) statuses.add(s);
  if (doc.body !== undefined || doc.idempotent === true || doc.success?.status === 201) {
    statuses.add(413);
    statuses.add(415);
  }
  if (doc.idempotent === true) {
    statuses.add(409);
    statuses.add(422);
  }
  for (const status of doc.errors ?? []) statuses.add(status);
  return [...statuses].sort((a, b) => a - b);
};

/** The two error bodies: `helix.agent_api.error.v1`, and the room facade's `helix.shared_live_room.error.v1`. */
export type ErrorBodyKind = 'ErrorBody' | 'RoomErrorBody';

export const errorResponseName = (status: number, kind: ErrorBodyKind = 'ErrorBody'): string =>
  kind === 'ErrorBody' ? `Error${status}` : `RoomError${status}`;

/** `components.responses.ErrorNNN` (or RoomErrorNNN): the error body, its `code` narrowed to the codes of status NNN. */
export const errorResponseOf = (status: number, headers: JsonObject, kind: ErrorBodyKind = 'ErrorBody'): JsonObject => {
  const codes = errorCodesWithStatus(status);
  return {
    description: codes.map((code) => `\`${code}\`: ${ERROR_TABLE[code].message}`).join('\n\n'),
    headers,
    content: {
      'application/json': {
        schema: {
          allOf: [
            { $ref: `#/components/schemas/${kind}` },
            {
              type: 'object',
              properties: { code: { type: 'string', enum: codes }, status: { type: 'integer', const: status } },
            },
          ],
        },
      },
    },
  };
};
