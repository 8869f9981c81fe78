/** What the Codex Responses transport needs from the credential side, and nothing more. */
export interface CodexAccess {
  readonly accessToken: string;
  readonly accountId: string;
}

export interface CodexCredentialSource {
  /**
   * Current access, refreshed first (single-flight) when the access token's `exp` has passed or is
   * within a small skew. Throws `ModelError('auth', …)` when there is no login or the stored health
   * is `reconnect-required`.
   */
  access(signal: AbortSignal): Promise<CodexAccess>;
  /**
   * After the backend answered 401 to `rejected`: re-read the credential document once (another
   * process may have refreshed); if it still holds the rejected token, refresh once. Throws
   * `ModelError('auth', …)` when that is not possible.
   */
  afterUnauthorized(rejected: CodexAccess, signal: AbortSignal): Promise<CodexAccess>;
}
