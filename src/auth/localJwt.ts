import { errors, jwtVerify } from 'jose';
import { ScopeSet } from '../domain/scopes.js';
import type { Principal } from './principal.js';
import { signedClientOf, signedTenantOf } from './tenantClaims.js';

export interface LocalJwtConfig {
  readonly secret: Uint8Array;
  readonly issuer: string;
  readonly audience: string | undefined;
}

/**
 * The explicit non-production path: HS256 tokens signed with HELIX_AGENT_LOCAL_JWT_SECRET. Only
 * HS256 is admitted (so `alg=none` and algorithm confusion fail), `exp` is required, and the
 * tenant must be a signed claim. Returns undefined for any token that does not verify.
 */
export const verifyLocalJwt = async (
  token: string,
  config: LocalJwtConfig,
  now: number,
): Promise<Principal | undefined> => {
  try {
    const { payload } = await jwtVerify(token, config.secret, {
      algorithms: ['HS256'],
      issuer: config.issuer,
      ...(config.audience === undefined ? {} : { audience: config.audience }),
      requiredClaims: ['exp', 'sub'],
      clockTolerance: 30,
      currentDate: new Date(now),
    });
    const tenantId = signedTenantOf(payload);
    if (tenantId === undefined || payload.sub === undefined || payload.sub.length > 200) return undefined;
    const scopeClaim = payload.scope ?? payload.scp;
    const scopes =
      typeof scopeClaim === 'string'
        ? ScopeSet.parse(scopeClaim)
        : new ScopeSet(Array.isArray(scopeClaim) ? scopeClaim.filter((s): s is string => typeof s === 'string') : []);
    const account =
      typeof payload.account_id === 'string' && payload.account_id.length <= 200 ? payload.account_id : payload.sub;
    return {
      kind: 'local_jwt',
      tenantId,
      issuer: config.issuer,
      subject: payload.sub,
      accountId: account,
      scopes,
      credentialId: typeof payload.jti === 'string' ? payload.jti.slice(0, 100) : `sub:${payload.sub}`,
      ...signedClientOf(payload),
      linkedAccount: false,
    };
  } catch (err) {
    if (err instanceof errors.JOSEError || err instanceof TypeError) return undefined;
    throw err;
  }
};
