import { isCredentialShaped } from '../../src/domain/credentialShape.js';

export const REDACTED = '[redacted]';
const MAX_DEPTH = 64;

/**
 * Builds a recursive redactor for a JSON value: every configured credential value, in keys and in
 * strings at any depth, becomes "[redacted]"; a string that is still credential-shaped afterwards
 * (a token echoed in another form, say) is replaced whole. Deeper than 64 levels fails closed.
 */
export const redactor = (secrets: readonly string[]) => {
  // One pass, longest first: a secret that contains another is removed whole, and a short secret
  // cannot match inside an earlier replacement.
  const known = [...new Set(secrets.filter((s) => s !== ''))].sort((a, b) => b.length - a.length);
  const pattern = known.length === 0 ? undefined : new RegExp(known.map((s) => s.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')).join('|'), 'g');
  const redactString = (value: string): string => {
    const out = pattern === undefined ? value : value.replace(pattern, REDACTED);
    return isCredentialShaped(out) ? REDACTED : out;
  };
  const redact = (value: unknown, depth = 0): unknown => {
    if (depth > MAX_DEPTH) return REDACTED;
    if (typeof value === 'string') return redactString(value);
    if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [redactString(key), redact(item, depth + 1)]));
    }
    return value;
  };
  return { redact, redactString };
};
