/**
 * Which failed turns end the run. A failure no further turn of this run can fix (credentials
 * refused, the provider's quota spent, a request the provider will always refuse, an answer that
 * overflows its bounds, an executor that threw) fails the run: lifecycle and completion `failed`,
 * event `run.failed`, next action `stop`, so a client that follows the statuses stops spending
 * steps. Everything else (a timeout, a rate limit, a server or network error, an interrupted turn)
 * blocks the run and a later continue may succeed.
 */
export const PERMANENT_TURN_FAILURES = [
  'executor_error',
  'model_error',
  'model_unconfigured',
  'model_auth',
  'model_quota',
  'model_context_length',
  'model_unsupported_parameter',
  'model_bad_request',
  'model_output_limit',
] as const;
export type PermanentTurnFailure = (typeof PERMANENT_TURN_FAILURES)[number];

export const isPermanentTurnFailure = (failureCode: string | null | undefined): boolean =>
  failureCode !== null &&
  failureCode !== undefined &&
  (PERMANENT_TURN_FAILURES as readonly string[]).includes(failureCode);
