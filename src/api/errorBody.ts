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
