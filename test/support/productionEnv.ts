/**
 * A complete production OAuth configuration for tests that never present a JWT (nothing is fetched
 * from these URLs then), reached as 127.0.0.1 through a trusted proxy that says the hop was HTTPS.
 */
export const OAUTH_ENV = {
  HELIX_AGENT_OAUTH_ISSUER: 'https://issuer.example',
  HELIX_AGENT_OAUTH_AUDIENCE: 'https://helix.example/mcp',
  HELIX_AGENT_OAUTH_JWKS_URL: 'https://issuer.example/jwks',
  HELIX_AGENT_OAUTH_PROVIDER: 'test',
  HELIX_AGENT_OAUTH_ALGORITHMS: 'RS256',
} as const;

export const PRODUCTION_ENV = {
  NODE_ENV: 'production',
  ...OAUTH_ENV,
  HELIX_PUBLIC_BASE_URL: 'https://helix.example',
  // The tests reach the server as 127.0.0.1, which production does not admit as a Host by default.
  HELIX_AGENT_ALLOWED_HOSTS: '127.0.0.1',
} as const;

/** What a request from behind the trusted proxy (TRUST_PROXY=127.0.0.1) carries. */
export const VIA_HTTPS_PROXY = { 'x-forwarded-proto': 'https' } as const;
