/**
 * Recognizes values that look like credentials, so they are never reflected or admitted where a
 * credential has no business (request ids, MCP ids, tool names and arguments, error details).
 * The patterns match token shapes, not words: an objective may talk about "bearer tokens".
 */
const CREDENTIAL_PATTERNS: readonly RegExp[] = [
  /hlx_[A-Za-z0-9_-]{16,}/, // Helix API keys (ADR-0004)
  /hlxinv_[A-Za-z0-9_-]{16,}/, // Shared Live Room invite tokens (SLR-08, docs/rooms.md)
  /hlxclm_[A-Za-z0-9_-]{16,}/, // browser-issued chat claim handles (SLR-08, SLR-10; admitted only by the claim operation)
  /hlxdlv_[A-Za-z0-9_-]{16,}/, // room source credential-delivery claim handles (SRC-01, docs/rooms.md)
  /hlxsrc_[A-Za-z0-9_-]{16,}/, // room source bearers (SRC-03, SRC-05)
  /hlxact_[A-Za-z0-9_-]{16,}/, // room source action credentials (M-02, docs/embodiment.md)
  /hlxown_[A-Za-z0-9_-]{16,}/, // agent-task owner tokens (ATP-07, ATP-15; admitted only in an owned reference)
  /eyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]*/, // JWS/JWT: base64url JSON header then a dot
  /\bbearer\s+[A-Za-z0-9\-._~+/]{12,}=*/i,
  /\bbasic\s+[A-Za-z0-9+/]{12,}={0,2}/i,
  /\bsk-[A-Za-z0-9_-]{16,}/, // OpenAI-style secret keys
  /\b(gh[pousr]|github_pat)_[A-Za-z0-9_]{16,}/, // GitHub tokens
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/, // Slack tokens
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
];

export const isCredentialShaped = (value: string): boolean => CREDENTIAL_PATTERNS.some((p) => p.test(value));

const GLOBAL_PATTERNS = CREDENTIAL_PATTERNS.map((p) => new RegExp(p.source, `${p.flags}g`));

/** Walks a JSON value (keys and strings) for anything credential-shaped. */
export const containsCredential = (value: unknown, depth = 0): boolean => {
  if (depth > 64) return true; // fail closed on pathological nesting
  if (typeof value === 'string') return isCredentialShaped(value);
  if (Array.isArray(value)) return value.some((v) => containsCredential(v, depth + 1));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([k, v]) => isCredentialShaped(k) || containsCredential(v, depth + 1));
  }
  return false;
};

export const REDACTED = '[redacted]';

/** The text with every credential-shaped run replaced by `[redacted]`: for text that is shown, not refused. */
export const redactCredentialText = (value: string): string =>
  GLOBAL_PATTERNS.reduce((text, pattern) => text.replace(pattern, REDACTED), value);

/**
 * A copy of a JSON value with every credential-shaped string (and object key) replaced by
 * `[redacted]`, for data Helix keeps but did not write itself (a source's observations, ING-03):
 * a player or an item named like a key must not put the key in the store.
 */
export const redactCredentials = (value: unknown, depth = 0): unknown => {
  if (typeof value === 'string') return isCredentialShaped(value) ? REDACTED : value;
  if (depth > 64) return REDACTED; // fail closed on pathological nesting
  if (Array.isArray(value)) return value.map((v) => redactCredentials(v, depth + 1));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [isCredentialShaped(k) ? REDACTED : k, redactCredentials(v, depth + 1)]),
    );
  return value;
};
