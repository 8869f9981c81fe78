/**
 * Recognizes values that look like credentials, so they are never reflected (request ids, MCP
 * ids, tool names, error details). Deliberately broad: a false positive only costs an echo.
 */
const CREDENTIAL_PATTERNS: readonly RegExp[] = [
  /hlx_/i, // Helix API keys (ADR-0004)
  /eyJ[A-Za-z0-9_-]{4,}/, // base64url JSON: JWT headers and payloads
  /\bbearer\b/i,
  /\bbasic\s+[A-Za-z0-9+/=]{8,}/i,
  /\bsk-[A-Za-z0-9_-]{8,}/, // OpenAI-style secret keys
  /\b(gh[pousr]|github_pat)_[A-Za-z0-9_]{8,}/, // GitHub tokens
  /\bxox[abprs]-/, // Slack tokens
  /(access|refresh|id)_token/i,
  /\bclaim[_-]?handle\b/i,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  /[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/, // compact JWS/JWE
];

export const isCredentialShaped = (value: string): boolean => CREDENTIAL_PATTERNS.some((p) => p.test(value));
