import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { HelixError } from '../domain/errors.js';
import { signedTenantOf } from './tenantClaims.js';

/** The resource server's OAuth settings (HELIX_AGENT_OAUTH_*), as src/config.ts parses them. */
export interface OAuthConfig {
  readonly issuer: string;
  readonly audience: string;
  readonly jwksUrl: string;
  /** The provider alias linked accounts are recorded under. */
  readonly provider: string;
  /** Admitted asymmetric JWS algorithms. */
  readonly algorithms: readonly string[];
}

export interface VerifiedAccessToken {
  readonly issuer: string;
  readonly subject: string;
  readonly tenantId: string;
  readonly payload: JWTPayload;
}

/** JWKS fetches give up quickly and are not repeated more than once per cooldown, whatever `kid`s arrive. */
export const JWKS_TIMEOUT_MS = 5_000;
export const JWKS_COOLDOWN_MS = 30_000;
const CLOCK_SKEW_SECONDS = 60;

/**
 * Production access-token verification (RFC 9068 / RFC 8725 practice): a remote JWKS, the exact
 * issuer and audience, only the admitted asymmetric algorithms, `exp` and `sub` required, `nbf`
 * honoured with a small skew, and a signed tenant claim. When the keys cannot be fetched, nothing
 * is admitted (503 auth_unavailable), never waved through.
 */
export const createOAuthVerifier = (config: OAuthConfig) => {
  const keys = createRemoteJWKSet(new URL(config.jwksUrl), {
    timeoutDuration: JWKS_TIMEOUT_MS,
    cooldownDuration: JWKS_COOLDOWN_MS,
  });
  return async (token: string, now: number): Promise<VerifiedAccessToken> => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: config.issuer,
        audience: config.audience,
        algorithms: [...config.algorithms],
        requiredClaims: ['exp', 'sub'],
        clockTolerance: CLOCK_SKEW_SECONDS,
        currentDate: new Date(now),
      }));
    } catch (err) {
      // The key set could not be obtained (down, slow, an error status, not a JWKS): fail closed.
      // jose raises the bare JOSEError class only for a failed JWKS response.
      const keysUnavailable =
        err instanceof errors.JWKSTimeout ||
        err instanceof errors.JWKSInvalid ||
        !(err instanceof errors.JOSEError) ||
        err.constructor === errors.JOSEError;
      if (keysUnavailable) {
        throw new HelixError('auth_unavailable', { retry_after_seconds: 5 });
      }
      throw new HelixError('invalid_token');
    }
    const tenantId = signedTenantOf(payload);
    if (tenantId === undefined || payload.sub === undefined || payload.sub.length > 512)
      throw new HelixError('invalid_token');
    return { issuer: config.issuer, subject: payload.sub, tenantId, payload };
  };
};
export type OAuthVerifier = ReturnType<typeof createOAuthVerifier>;
