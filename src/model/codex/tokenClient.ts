import { decodeJwt } from 'jose';
import { authorizationCodeGrantRequest, None, refreshTokenGrantRequest } from 'oauth4webapi';
import { readBoundedText } from '../../net/boundedBody.js';
import { CodexAuthError } from './codexAuthError.js';
import { CODEX_ACCOUNT_CLAIM, type CodexEndpoints } from './endpoints.js';
import { CODEX_CLIENT, codexAuthorizationServer, tokenRequestOptions } from './oauthClient.js';

/** docs/spec/codex-protocol-notes.md "Tokens": a token response without `expires_in` lasts 3600 s. */
const DEFAULT_EXPIRES_IN_SECONDS = 3600;

/** Refresh answers that mean the refresh token is dead: only a new login helps. */
export const TERMINAL_REFRESH_REASONS = [
  'refresh_token_expired',
  'refresh_token_reused',
  'refresh_token_invalidated',
  'invalid_grant',
  /** A 401 from the token endpoint that named none of the codes above. */
  'unauthorized',
] as const;
export type TerminalRefreshReason = (typeof TERMINAL_REFRESH_REASONS)[number];

export interface CodexTokens {
  readonly idToken: string;
  readonly accessToken: string;
  readonly refreshToken: string;
  /** Epoch ms, from `expires_in`; the access token's own `exp` wins when it has one. */
  readonly expiresAt: number;
  readonly accountId: string;
}

/** A refresh response may omit any token; whichever came replaces the stored one. */
export interface RefreshedTokens {
  readonly idToken?: string;
  readonly accessToken?: string;
  readonly refreshToken?: string;
  readonly expiresAt: number;
}

export interface CodeExchange {
  /** The authorization response, from oauthClient.ts (authorizationResponse or deviceAuthorizationResponse). */
  readonly callback: URLSearchParams;
  readonly redirectUri: string;
  readonly codeVerifier: string;
}

const claimAccountId = (jwt: string | undefined): string | undefined => {
  if (jwt === undefined) return undefined;
  try {
    const claim = decodeJwt(jwt)[CODEX_ACCOUNT_CLAIM];
    if (typeof claim !== 'object' || claim === null) return undefined;
    const id = (claim as Record<string, unknown>).chatgpt_account_id;
    return typeof id === 'string' && id !== '' ? id : undefined;
  } catch {
    return undefined;
  }
};

/** The ChatGPT account id: the id_token's account claim first, then the access_token's (as the public clients read it). */
export const accountIdFromTokens = (idToken: string | undefined, accessToken: string | undefined): string | undefined =>
  claimAccountId(idToken) ?? claimAccountId(accessToken);

/** Epoch ms of the JWT's `exp`, or undefined when the token is not a JWT or has none. */
export const jwtExpiry = (token: string): number | undefined => {
  try {
    const { exp } = decodeJwt(token);
    return typeof exp === 'number' ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
};

/** Three JWTs and a few fields; anything far larger is not a token response. */
const MAX_TOKEN_RESPONSE_BYTES = 256 * 1024;

const readJson = async (response: Response): Promise<Record<string, unknown> | undefined> => {
  try {
    const { text, complete } = await readBoundedText(response, MAX_TOKEN_RESPONSE_BYTES);
    if (!complete) return undefined;
    const body: unknown = JSON.parse(text);
    return typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
};

const stringField = (body: Record<string, unknown>, key: string): string | undefined => {
  const value = body[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

const expiresAtOf = (body: Record<string, unknown>, now: number): number => {
  const value = body.expires_in;
  const seconds = typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : DEFAULT_EXPIRES_IN_SECONDS;
  return now + seconds * 1000;
};

/**
 * A provider code fit to show: identifier-shaped and short. The token endpoint's `error` is free
 * text on some servers, and free text can quote the refresh token or code it refused.
 */
const PROVIDER_CODE = /^[A-Za-z0-9_.:-]{1,80}$/;
const shownCode = (code: string | undefined): string | undefined =>
  code !== undefined && PROVIDER_CODE.test(code) ? code : undefined;

/** The provider's error code from `{"error":{"code"}}`, `{"error":"…"}` or a top-level `code`. */
export const providerErrorCode = (body: Record<string, unknown> | undefined): string | undefined => {
  if (body === undefined) return undefined;
  const error = body.error;
  if (typeof error === 'string' && error !== '') return error;
  if (typeof error === 'object' && error !== null) {
    const code = (error as Record<string, unknown>).code;
    if (typeof code === 'string' && code !== '') return code;
  }
  return stringField(body, 'code');
};

/**
 * Authorization-code exchange: oauth4webapi sends the form (grant_type, code, redirect_uri, client_id,
 * code_verifier); the answer is read here, since the Codex token response need not carry `token_type`.
 */
export const exchangeAuthorizationCode = async (
  endpoints: CodexEndpoints,
  exchange: CodeExchange,
  signal: AbortSignal,
  now: () => number = Date.now,
): Promise<CodexTokens> => {
  const response = await authorizationCodeGrantRequest(
    codexAuthorizationServer(endpoints),
    CODEX_CLIENT,
    None(),
    exchange.callback,
    exchange.redirectUri,
    exchange.codeVerifier,
    tokenRequestOptions(endpoints, signal),
  );
  const body = await readJson(response);
  if (!response.ok) {
    const code = shownCode(providerErrorCode(body));
    throw new CodexAuthError(
      'token_exchange_failed',
      `the token endpoint refused the authorization code (HTTP ${response.status}${code === undefined ? '' : `, ${code}`})`,
      {
        httpStatus: response.status,
        ...(code === undefined ? {} : { providerCode: code }),
      },
    );
  }
  const idToken = body === undefined ? undefined : stringField(body, 'id_token');
  const accessToken = body === undefined ? undefined : stringField(body, 'access_token');
  const refreshToken = body === undefined ? undefined : stringField(body, 'refresh_token');
  if (body === undefined || idToken === undefined || accessToken === undefined || refreshToken === undefined) {
    throw new CodexAuthError(
      'invalid_token_response',
      'the token response lacks id_token, access_token or refresh_token',
    );
  }
  const accountId = accountIdFromTokens(idToken, accessToken);
  if (accountId === undefined)
    throw new CodexAuthError(
      'missing_account_id',
      'the login returned no ChatGPT account id; is this account on a plan that includes Codex?',
    );
  return { idToken, accessToken, refreshToken, expiresAt: expiresAtOf(body, now()), accountId };
};

const isTerminalReason = (code: string | undefined): code is TerminalRefreshReason =>
  code !== undefined && (TERMINAL_REFRESH_REASONS as readonly string[]).includes(code) && code !== 'unauthorized';

/**
 * Refresh: oauth4webapi sends the form (grant_type=refresh_token, refresh_token, client_id); the
 * answer is read here, since a Codex refresh answer may omit any of its tokens. Throws
 * `CodexAuthError('refresh_rejected')` (terminal, `providerCode` is a `TerminalRefreshReason`) or
 * another code (transient: health must not change).
 */
export const refreshCodexTokens = async (
  endpoints: CodexEndpoints,
  refreshToken: string,
  signal: AbortSignal,
  now: () => number = Date.now,
): Promise<RefreshedTokens> => {
  const response = await refreshTokenGrantRequest(
    codexAuthorizationServer(endpoints),
    CODEX_CLIENT,
    None(),
    refreshToken,
    tokenRequestOptions(endpoints, signal),
  );
  const body = await readJson(response);
  if (!response.ok) {
    const code = providerErrorCode(body);
    const reason: TerminalRefreshReason | undefined = isTerminalReason(code)
      ? code
      : response.status === 401
        ? 'unauthorized'
        : undefined;
    if (reason !== undefined) {
      throw new CodexAuthError('refresh_rejected', `the Codex login can no longer be refreshed (${reason})`, {
        httpStatus: response.status,
        providerCode: reason,
      });
    }
    const shown = shownCode(code);
    throw new CodexAuthError(
      'refresh_failed',
      `the token endpoint failed the refresh (HTTP ${response.status}${shown === undefined ? '' : `, ${shown}`})`,
      {
        httpStatus: response.status,
      },
    );
  }
  if (body === undefined) throw new CodexAuthError('refresh_failed', 'the refresh response is not a JSON object');
  const idToken = stringField(body, 'id_token');
  const accessToken = stringField(body, 'access_token');
  const rotated = stringField(body, 'refresh_token');
  return {
    ...(idToken === undefined ? {} : { idToken }),
    ...(accessToken === undefined ? {} : { accessToken }),
    ...(rotated === undefined ? {} : { refreshToken: rotated }),
    expiresAt: expiresAtOf(body, now()),
  };
};
