import type { ApiErrorBody } from './contract.js';

/**
 * The server refused the request with a `helix.agent_api.error.v1` body (validated against the
 * error schema): `code` is the stable error code, `adrCode` its ADR-0004 number where one exists.
 */
export class HelixApiError extends Error {
  override readonly name = 'HelixApiError';
  readonly status: number;
  readonly code: ApiErrorBody['code'];
  readonly adrCode: number | undefined;

  constructor(readonly body: ApiErrorBody) {
    super(body.message);
    this.status = body.status;
    this.code = body.code;
    this.adrCode = body.adr_code;
  }
}

/**
 * The server answered off-contract: a body that is not JSON, does not match the operation's output
 * schema, or an error status without an error body. Typed so a caller can report "this is not a
 * Helix server (or not this version)" instead of failing later on a missing field.
 */
export class HelixContractError extends Error {
  override readonly name = 'HelixContractError';
  constructor(
    readonly status: number,
    /** The schema issues, as `path: message` (at most ten), or why the body could not be read. */
    readonly issues: readonly string[],
  ) {
    super(`the server answered HTTP ${status} off-contract: ${issues.join('; ')}`);
  }
}
