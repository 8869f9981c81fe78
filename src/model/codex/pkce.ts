import { createHash, randomBytes } from 'node:crypto';
import { CODEX_CLIENT_ID, CODEX_ORIGINATOR, CODEX_SCOPE, codexPaths, type CodexEndpoints } from './endpoints.js';

export interface Pkce {
  readonly verifier: string;
  readonly challenge: string;
}

/** RFC 7636 §4.2: challenge = BASE64URL(SHA256(verifier)). */
export const s256Challenge = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');

/** 64 random bytes give an 86-character verifier, inside RFC 7636's 43–128 range. */
export const createPkce = (): Pkce => {
  const verifier = randomBytes(64).toString('base64url');
  return { verifier, challenge: s256Challenge(verifier) };
};

/** 32 random bytes, base64url, as the official Codex CLI sends. */
export const createState = (): string => randomBytes(32).toString('base64url');

export interface AuthorizeParams {
  readonly redirectUri: string;
  readonly challenge: string;
  readonly state: string;
}

/** The pinned authorization request (docs/spec/codex-subscription-protocol.md, "Pinned OAuth contract"). */
export const buildAuthorizeUrl = (endpoints: CodexEndpoints, params: AuthorizeParams): string => {
  const url = new URL(codexPaths.authorize, endpoints.issuer);
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: CODEX_CLIENT_ID,
    redirect_uri: params.redirectUri,
    scope: CODEX_SCOPE,
    code_challenge: params.challenge,
    code_challenge_method: 'S256',
    state: params.state,
    id_token_add_organizations: 'true',
    codex_cli_simplified_flow: 'true',
    originator: CODEX_ORIGINATOR,
  });
  url.search = query.toString();
  return url.toString();
};
