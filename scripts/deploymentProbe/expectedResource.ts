/**
 * Which `resource` a deployment's protected-resource metadata must name (RFC 9728 §2, RFC 8707).
 * A client asks its authorization server for a token with exactly that value, and the server puts
 * it in `aud`; so the only right answer is the audience the deployment accepts. When the probe holds
 * a JWT access token the target admits, that token's `aud` is the ground truth. Without one (no
 * token, or an opaque `hlx_` key), the contract's canonical resource is the MCP endpoint's URL,
 * `<origin>/mcp` (docs/spec/helix-agent-api-v1.md "Deployment configuration": one canonical resource
 * audience shared by REST and MCP). A bare origin is never right: a token minted for it is refused.
 */
export interface ExpectedResource {
  readonly values: readonly string[];
  /** Where the expectation came from, for the check's detail. */
  readonly source: 'token audience' | 'canonical MCP resource';
}

/**
 * The `aud` claim of a JWT, decoded but not verified (the target verifies it; the probe only reads
 * what the token was minted for). Undefined for a token that is no JWT or carries no string `aud`.
 */
export const jwtAudiences = (token: string | undefined): readonly string[] | undefined => {
  const payload = token?.split('.');
  if (payload?.length !== 3) return undefined;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload[1] as string, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (claims === null || typeof claims !== 'object') return undefined;
  const aud = (claims as { aud?: unknown }).aud;
  const values = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud.filter((a) => typeof a === 'string') : [];
  return values.length > 0 ? values : undefined;
};

export const expectedResource = (target: string, accessToken: string | undefined): ExpectedResource => {
  const audiences = jwtAudiences(accessToken);
  return audiences === undefined
    ? { values: [`${target}/mcp`], source: 'canonical MCP resource' }
    : { values: audiences, source: 'token audience' };
};
