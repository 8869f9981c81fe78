import { calculatePKCECodeChallenge, generateRandomCodeVerifier, generateRandomState } from 'oauth4webapi';
import { CODEX_CLIENT_ID, CODEX_ORIGINATOR, CODEX_SCOPE, codexPaths, type CodexEndpoints } from './endpoints.js';

export interface Pkce {
  readonly verifier: string;
  readonly challenge: string;
}

/** RFC 7636 §4.2: challenge = BASE64URL(SHA256(verifier)), computed by oauth4webapi. */
export const s256Challenge = (verifier: string): Promise<string> => calculatePKCECodeChallenge(verifier);

/** oauth4webapi's verifier: 32 random bytes, a 43-character base64url string (RFC 7636 §4.1's minimum length). */
export const createPkce = async (): Promise<Pkce> => {
  const verifier = generateRandomCodeVerifier();
  return { verifier, challenge: await s256Challenge(verifier) };
};

/** 32 random bytes, base64url, as the official Codex CLI sends (oauth4webapi's state is exactly that). */
export const createState = (): string => generateRandomState();

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
