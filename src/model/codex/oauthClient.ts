import {
  allowInsecureRequests,
  AuthorizationResponseError,
  customFetch,
  skipStateCheck,
  validateAuthResponse,
  type AuthorizationServer,
  type Client,
  type TokenEndpointRequestOptions,
} from 'oauth4webapi';
import { ModelError } from '../port.js';
import { defaultProviderFetch } from '../http/providerFetch.js';
import { CodexAuthError } from './codexAuthError.js';
import { CODEX_CLIENT_ID, codexPaths, type CodexEndpoints } from './endpoints.js';

/**
 * The Codex issuer and public client as oauth4webapi describes them. oauth4webapi builds the
 * authorization response check and the token requests; the token responses are read by
 * tokenClient.ts, because the Codex wire format is not RFC 6749's (see docs/architecture.md,
 * "Libraries and why").
 */
export const CODEX_CLIENT: Client = { client_id: CODEX_CLIENT_ID };

export const codexAuthorizationServer = (endpoints: CodexEndpoints): AuthorizationServer => ({
  issuer: endpoints.issuer,
  authorization_endpoint: new URL(codexPaths.authorize, endpoints.issuer).href,
  token_endpoint: new URL(codexPaths.token, endpoints.issuer).href,
});

const TOKEN_REQUEST_TIMEOUT_MS = 30_000;

/** Sends a token request through the redirect-refusing fetch, and names every way it can fail. */
const sendTokenRequest =
  (signal: AbortSignal) =>
  async (url: string, init: RequestInit): Promise<Response> => {
    try {
      return await defaultProviderFetch(url, init);
    } catch (err) {
      if (err instanceof ModelError)
        throw new CodexAuthError(
          'endpoint_redirect',
          `the token endpoint answered with a redirect (HTTP ${String(err.details.httpStatus)}), which is refused`,
          { httpStatus: err.details.httpStatus ?? 0 },
        );
      if (signal.aborted) throw new CodexAuthError('aborted', 'the token request was aborted');
      throw new CodexAuthError('transport', `could not reach the token endpoint: ${(err as Error).message}`);
    }
  };

/**
 * oauth4webapi's options for one token request: a 30-second bound on top of the caller's signal,
 * and plain http only for the loopback test origin (codexEndpointsFromEnv refuses any other).
 */
export const tokenRequestOptions = (endpoints: CodexEndpoints, signal: AbortSignal): TokenEndpointRequestOptions => ({
  signal: AbortSignal.any([signal, AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS)]),
  [allowInsecureRequests]: new URL(endpoints.issuer).protocol === 'http:',
  [customFetch]: sendTokenRequest(signal),
});

/** Printable, bounded provider text: a description is shown to the user, never executed or trusted. */
const shown = (text: string | undefined): string => (text ?? '').replace(/[^\x20-\x7e]/g, ' ').slice(0, 200);

/** An `error` in the redirect, as the typed reason the login stopped. */
const deniedError = (error: string, description: string | undefined): CodexAuthError => {
  if (error === 'access_denied' && description?.includes('missing_codex_entitlement') === true)
    return new CodexAuthError(
      'missing_entitlement',
      'this account has no Codex entitlement: sign in with a ChatGPT plan that includes Codex',
      { providerCode: 'missing_codex_entitlement' },
    );
  return new CodexAuthError(
    'authorization_denied',
    `the login was not authorized: ${shown(error)}${description === undefined ? '' : ` (${shown(description)})`}`,
    { providerCode: shown(error) },
  );
};

/**
 * The redirect's parameters checked by oauth4webapi's validateAuthResponse (state, `error`, `iss`
 * when present) and returned in the form its code exchange accepts. The state is compared first
 * here too, so a forged redirect gets its own typed error before anything else is read.
 */
export const authorizationResponse = (
  endpoints: CodexEndpoints,
  params: URLSearchParams,
  expectedState: string,
): URLSearchParams => {
  if (params.get('state') !== expectedState)
    throw new CodexAuthError(
      'state_mismatch',
      'the login callback carried a different state; it was refused and no code was exchanged',
    );
  let validated: URLSearchParams;
  try {
    validated = validateAuthResponse(codexAuthorizationServer(endpoints), CODEX_CLIENT, params, expectedState);
  } catch (err) {
    if (err instanceof AuthorizationResponseError) throw deniedError(err.error, err.error_description);
    throw new CodexAuthError('invalid_callback', `the login callback was refused: ${shown((err as Error).message)}`);
  }
  if ((validated.get('code') ?? '') === '')
    throw new CodexAuthError('invalid_callback', 'the login callback carried no authorization code');
  return validated;
};

/** The device poll hands the code over itself (no redirect, so no state to compare): made exchangeable as is. */
export const deviceAuthorizationResponse = (endpoints: CodexEndpoints, code: string): URLSearchParams =>
  validateAuthResponse(
    codexAuthorizationServer(endpoints),
    CODEX_CLIENT,
    new URLSearchParams({ code }),
    skipStateCheck,
  );
