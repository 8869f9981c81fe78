import type { HelixError } from '../domain/errors.js';

export const ERROR_SCHEMA = 'helix.agent_api.error.v1';

/**
 * The `helix.agent_api.error.v1` body. Messages are static strings from the code and details are
 * server-derived: nothing a caller sent is echoed.
 */
export const errorBody = (err: HelixError) => ({
  schema: ERROR_SCHEMA,
  code: err.code,
  message: err.message,
  status: err.status,
  ...(err.adrNumber === undefined ? {} : { adr_code: err.adrNumber }),
  ...err.details,
});
export type ErrorBody = ReturnType<typeof errorBody>;

export const ROOM_ERROR_SCHEMA = 'helix.shared_live_room.error.v1';

/**
 * The error body of the room facade (docs/spec/shared-live-room-requirements.md §4, §22): the same
 * code, message, status and top-level details as `helix.agent_api.error.v1` (one vocabulary), under
 * the room schema name, with the details also gathered in a `details` object, where the [ref]
 * contract reads them (`details.execution_enabled: false` on `command_execution_not_enabled`).
 */
export const roomErrorBody = (err: HelixError) => ({
  ...errorBody(err),
  schema: ROOM_ERROR_SCHEMA,
  ...(Object.keys(err.details).length === 0 ? {} : { details: { ...err.details } }),
});
