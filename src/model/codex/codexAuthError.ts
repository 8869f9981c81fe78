/**
 * The one error type of Codex login, refresh and the local credential store. `code` is stable and
 * narrows in a switch; messages never carry token material or account ids.
 */
export const CODEX_AUTH_ERROR_CODES = [
  /** The callback's `state` is not the one this login sent: a forged or stale redirect. */
  'state_mismatch',
  /** The authorization server answered the callback with an `error`. */
  'authorization_denied',
  /** `access_denied` + `missing_codex_entitlement`: the ChatGPT account has no Codex. */
  'missing_entitlement',
  /** The callback or pasted URL carried neither a code nor an error. */
  'invalid_callback',
  /** No loopback callback port could be bound; the pasted-URL path is the way on. */
  'no_callback_port',
  'login_timeout',
  /** Another login sent `GET /cancel` to this login's callback server. */
  'login_cancelled',
  'aborted',
  /** Device start answered 404: device login is not enabled for this issuer/account. */
  'device_login_not_enabled',
  'device_login_failed',
  'device_login_timeout',
  'token_exchange_failed',
  /** A token response lacked required fields or was not JSON. */
  'invalid_token_response',
  /** Neither the id_token nor the access_token names a ChatGPT account. */
  'missing_account_id',
  /** Terminal refresh failure (revoked, reused, expired refresh token): log in again. */
  'refresh_rejected',
  /** Transient refresh failure (5xx, transport); credential health is unchanged. */
  'refresh_failed',
  /** An OAuth endpoint answered with a redirect, which is never followed. */
  'endpoint_redirect',
  'transport',
  'not_logged_in',
  'reconnect_required',
  /** The stored credential document is not JSON or matches no known version. */
  'document_unreadable',
  /** The owner key cannot name a credential document. */
  'invalid_owner',
  /** The cross-process credential lock stayed held past the wait limit. */
  'lock_timeout',
] as const;
export type CodexAuthErrorCode = (typeof CODEX_AUTH_ERROR_CODES)[number];

export interface CodexAuthErrorDetails {
  readonly httpStatus?: number;
  /** The provider's error code (e.g. `refresh_token_reused`), never a raw body. */
  readonly providerCode?: string;
}

export class CodexAuthError extends Error {
  override readonly name = 'CodexAuthError';
  constructor(
    readonly code: CodexAuthErrorCode,
    message: string,
    readonly details: CodexAuthErrorDetails = {},
  ) {
    super(message);
  }
}
