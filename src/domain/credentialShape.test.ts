import { describe, expect, it } from 'vitest';
import { containsCredential, isCredentialShaped, redactCredentials } from './credentialShape.js';

describe('credential shapes', () => {
  it.each([
    `hlx_${'a'.repeat(43)}`,
    `hlxinv_${'b'.repeat(43)}`,
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.sig',
    'Bearer abcdefghijklmnop',
    'sk-abcdefghijklmnopqrstu',
    'ghp_abcdefghijklmnopqrstuvwx',
    '-----BEGIN RSA PRIVATE KEY-----',
  ])('recognizes %s', (value) => expect(isCredentialShaped(value)).toBe(true));

  it.each(['Explain how bearer tokens work', 'run_abc123', 'hlx_', 'The key eye'])('lets %s through', (value) =>
    expect(isCredentialShaped(value)).toBe(false),
  );

  it('finds credentials in nested keys and values', () => {
    expect(containsCredential({ a: [{ b: `x hlx_${'Z'.repeat(30)}` }] })).toBe(true);
    expect(containsCredential({ [`hlx_${'Z'.repeat(30)}`]: 1 })).toBe(true);
    expect(containsCredential({ objective: 'compare bearer and basic auth', n: 3 })).toBe(false);
  });

  it('redacts every credential-shaped run and keeps the prose around it', () => {
    const text = `item sk-${'a'.repeat(20)} and hlxsrc_${'B'.repeat(43)}, then Bearer abcdefghijklmnop here`;
    expect(redactCredentials(text)).toBe('item [redacted] and [redacted], then [redacted] here');
    expect(redactCredentials('Explain how bearer tokens work')).toBe('Explain how bearer tokens work');
  });
});
