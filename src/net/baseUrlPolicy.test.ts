import { describe, expect, it } from 'vitest';
import { checkBaseUrl, normalizeHostEntry } from './baseUrlPolicy.js';

const open = { production: false, allowedHosts: undefined, allowedCidrs: [] };
const reasonOf = (raw: string, policy: Parameters<typeof checkBaseUrl>[1] = open): string | undefined => {
  const check = checkBaseUrl(raw, policy);
  return check.ok ? undefined : check.reason;
};

describe('model provider base URL policy', () => {
  it('admits absolute http(s) URLs and drops a trailing slash', () => {
    expect(checkBaseUrl('https://api.openai.com/v1/', open)).toEqual({ ok: true, url: 'https://api.openai.com/v1' });
    expect(checkBaseUrl('http://127.0.0.1:8080/v1', open)).toEqual({ ok: true, url: 'http://127.0.0.1:8080/v1' });
    expect(checkBaseUrl('HTTPS://Example.COM', open)).toEqual({ ok: true, url: 'https://example.com' });
  });

  it.each([
    ['relative', '/v1'],
    ['another scheme', 'file:///etc/passwd'],
    ['ftp', 'ftp://example.com/v1'],
    ['credentials', 'https://user:pass@example.com/v1'],
    ['a user name', 'https://user@example.com/v1'],
    ['a query', 'https://example.com/v1?key=x'],
    ['an empty query', 'https://example.com/v1?'],
    ['a fragment', 'https://example.com/v1#x'],
  ])('refuses %s', (_what, raw) => {
    expect(reasonOf(raw)).toBeDefined();
    expect(reasonOf(raw)).not.toContain(raw);
  });

  it('requires https in production unless the host is allow-listed', () => {
    const production = { production: true, allowedHosts: undefined, allowedCidrs: [] };
    expect(reasonOf('http://models.internal/v1', production)).toMatch(/https/);
    expect(reasonOf('https://models.internal/v1', production)).toBeUndefined();
    const listed = { production: true, allowedHosts: new Set(['models.internal']), allowedCidrs: [] };
    expect(reasonOf('http://models.internal:8000/v1', listed)).toBeUndefined();
  });

  it('admits only allow-listed hosts when a list is configured', () => {
    const policy = { production: false, allowedHosts: new Set(['api.openai.com', '[::1]']), allowedCidrs: [] };
    expect(reasonOf('https://api.openai.com/v1', policy)).toBeUndefined();
    expect(reasonOf('http://[::1]:9000/v1', policy)).toBeUndefined();
    expect(reasonOf('http://169.254.169.254/latest', policy)).toMatch(/ALLOWED_HOSTS/);
    expect(reasonOf('https://api.openai.com.evil.example/v1', policy)).toMatch(/ALLOWED_HOSTS/);
  });

  it('normalizes allow-list entries to bare lower-case hosts', () => {
    expect(normalizeHostEntry(' API.OpenAI.com:443 ')).toBe('api.openai.com');
    expect(normalizeHostEntry('[::1]:8080')).toBe('[::1]');
  });
});
