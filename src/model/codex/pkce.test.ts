import { describe, expect, it } from 'vitest';
import { CODEX_CLIENT_ID, PINNED_CODEX_ENDPOINTS } from './endpoints.js';
import { buildAuthorizeUrl, createPkce, createState, s256Challenge } from './pkce.js';

describe('PKCE and the authorize URL', () => {
  it('computes the RFC 7636 appendix B challenge', async () => {
    expect(await s256Challenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('makes a fresh verifier within RFC 7636 length bounds whose challenge matches', async () => {
    const a = await createPkce();
    const b = await createPkce();
    expect(a.verifier).not.toBe(b.verifier);
    expect(a.verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(a.challenge).toBe(await s256Challenge(a.verifier));
  });

  it('makes a state of 32 random bytes, base64url', () => {
    const state = createState();
    expect(Buffer.from(state, 'base64url')).toHaveLength(32);
    expect(state).not.toBe(createState());
  });

  it('builds the pinned authorization request', () => {
    const url = new URL(
      buildAuthorizeUrl(PINNED_CODEX_ENDPOINTS, {
        redirectUri: 'http://localhost:1457/auth/callback',
        challenge: 'chal',
        state: 'st',
      }),
    );
    expect(url.origin + url.pathname).toBe('https://auth.openai.com/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: CODEX_CLIENT_ID,
      redirect_uri: 'http://localhost:1457/auth/callback',
      scope: 'openid profile email offline_access',
      code_challenge: 'chal',
      code_challenge_method: 'S256',
      state: 'st',
      id_token_add_organizations: 'true',
      codex_cli_simplified_flow: 'true',
      originator: 'helix',
    });
  });
});
