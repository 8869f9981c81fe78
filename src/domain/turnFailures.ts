import { BOUND_ROOM_FAILURE_CODES } from './errors.js';

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

/**
 * Capability refusals that fail the turn under their own code instead of being noted as an
 * unavailable source: the bound room lane's rechecks (BRE-04..BRE-06, PRB-01), whose client must
 * learn why no room evidence was read. Not permanent: the binding, membership or source can be fixed.
 */
export const TURN_FAILING_CAPABILITY_ERRORS = BOUND_ROOM_FAILURE_CODES;
export type TurnFailingCapabilityError = (typeof TURN_FAILING_CAPABILITY_ERRORS)[number];

export const isTurnFailingCapabilityError = (code: string): code is TurnFailingCapabilityError =>
  (TURN_FAILING_CAPABILITY_ERRORS as readonly string[]).includes(code);

/**
 * What a model provider stated about the error a failed turn ended with (docs/spec/codex-subscription-protocol.md:
 * the stated `type`, `code` and `message` are "carried in the failure the turn ends with").
 * Sanitized at the model boundary: identifiers only for `type` and `code`, the message bounded with
 * control characters removed and every credential the client sent masked. Wire shape, so snake_case.
 */
export interface TurnFailureDetail {
  /** The model client that failed (`codex-subscription`, `openai-responses`, …); null when none was chosen yet. */
  readonly provider: string | null;
  readonly type: string | null;
  readonly code: string | null;
  readonly message: string | null;
  readonly http_status: number | null;
}
