import { isCredentialShaped } from '../../src/domain/credentialShape.js';

export const REDACTED = '[redacted]';
const MAX_DEPTH = 64;

/**
 * Provider key fragments a provider may quote back in an error: OpenAI masks a wrong key as
 * `sk-proj-****…abcd` and a Google key starts `AIza`. Neither is the configured value, so the
 * literal match misses them; they are cut out wherever they appear.
 */
const PROVIDER_KEY_FRAGMENTS = /\bsk-[A-Za-z0-9_*-]{8,}|\bAIza[0-9A-Za-z_-]{8,}/g;

/**
 * Builds a recursive redactor for a JSON value: every configured credential value, in keys and in
 * strings at any depth, becomes "[redacted]", as does a provider key fragment; a string that is
 * still credential-shaped afterwards (a token echoed in another form, say) is replaced whole.
 * Deeper than 64 levels fails closed.
 */
export const redactor = (secrets: readonly string[]) => {
  // One pass, longest first: a secret that contains another is removed whole, and a short secret
  // cannot match inside an earlier replacement.
  const known = [...new Set(secrets.filter((s) => s !== ''))].sort((a, b) => b.length - a.length);
  const pattern =
    known.length === 0
      ? undefined
      : new RegExp(known.map((s) => s.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')).join('|'), 'g');
  const redactString = (value: string): string => {
    const out = (pattern === undefined ? value : value.replace(pattern, REDACTED)).replace(
      PROVIDER_KEY_FRAGMENTS,
      REDACTED,
    );
    return isCredentialShaped(out) ? REDACTED : out;
  };
  const redact = (value: unknown, depth = 0): unknown => {
    if (depth > MAX_DEPTH) return REDACTED;
    if (typeof value === 'string') return redactString(value);
    if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [redactString(key), redact(item, depth + 1)]),
      );
    }
    return value;
  };
  return { redact, redactString };
};
