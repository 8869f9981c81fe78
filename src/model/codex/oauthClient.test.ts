import { describe, expect, it } from 'vitest';
import { PINNED_CODEX_ENDPOINTS } from './endpoints.js';
import { authorizationResponse } from './oauthClient.js';

const STATE = 'state-sent-with-the-login';
const check = (query: Record<string, string>) =>
  authorizationResponse(PINNED_CODEX_ENDPOINTS, new URLSearchParams(query), STATE);
const codeOf = (query: Record<string, string>) => {
  try {
    return check(query).get('code');
  } catch (err) {
    return (err as { code: string }).code;
  }
};

describe('the authorization response (oauth4webapi validateAuthResponse)', () => {
  it('accepts the code with its own state, and with the issuer named when it is the pinned one', () => {
    expect(codeOf({ code: 'ac_1', state: STATE })).toBe('ac_1');
    expect(codeOf({ code: 'ac_1', state: STATE, iss: 'https://auth.openai.com' })).toBe('ac_1');
  });

  it('refuses a forged or missing state before reading anything else', () => {
    expect(codeOf({ code: 'ac_1', state: 'forged' })).toBe('state_mismatch');
    expect(codeOf({ code: 'ac_1' })).toBe('state_mismatch');
    expect(codeOf({ error: 'access_denied' })).toBe('state_mismatch');
  });

  it('refuses a response that names another issuer (RFC 9207 mix-up defence)', () => {
    expect(codeOf({ code: 'ac_1', state: STATE, iss: 'https://attacker.example' })).toBe('invalid_callback');
  });

  it('turns an error into the typed reason, the missing Codex entitlement apart', () => {
    expect(codeOf({ error: 'access_denied', error_description: 'missing_codex_entitlement', state: STATE })).toBe(
      'missing_entitlement',
    );
    expect(() => check({ error: 'server_error', error_description: 'down\u0007', state: STATE })).toThrow(
      'the login was not authorized: server_error (down )',
    );
  });

  it('refuses a response with neither code nor error', () => {
    expect(codeOf({ state: STATE })).toBe('invalid_callback');
    expect(codeOf({ state: STATE, code: '' })).toBe('invalid_callback');
  });
});
