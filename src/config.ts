import { DEFAULT_MIN_FOCUS_COVERAGE } from './domain/answerContract/contract.js';
import { ConfigError, endpoint, integer, list, value, type Env } from './config/env.js';
import type { OAuthConfig } from './auth/oauthJwt.js';
import { accountPolicyDefaults } from './config/accountPolicyConfig.js';
import type { TurnLimits } from './service/runs/turnSlots.js';
import { embeddingsConfig } from './config/embeddingsConfig.js';
import { libraryLimits } from './config/libraryLimits.js';
import type { EmbeddingsSettings } from './model/embeddings/embeddingsSettings.js';
import { modelConfig, type ModelConfig } from './config/modelConfig.js';
import type { AccountPolicy } from './domain/accountPolicy.js';
import { SCOPE_CATALOG } from './domain/scopeCatalog.js';
import { MAX_TRUSTED_HOPS, parseTrustProxy, TrustProxyError, type TrustProxySetting } from './config/trustProxy.js';
import type { SourcesConfig } from './sources/configuredSources.js';
import type { DocumentLimits } from './sources/library/extract/limits.js';
import { DEFAULT_DATABASE } from './store/openStore.js';
import { telemetryConfig, type TelemetryConfig } from './config/telemetryConfig.js';
import { adapterFixturesEnabled } from './config/environmentAdapterConfig.js';
import { runtimeApprovalKeys } from './config/runtimeApprovalConfig.js';
import type { TrustedApprovalKey } from './domain/runtimeApproval.js';
import { roomStorageLimits } from './config/roomStorageConfig.js';
import type { RoomStorageLimits } from './domain/roomStorage.js';

/**
 * Every environment variable Helix reads, parsed and validated once at start-up. A bad value stops
 * the process with a message naming the variable; nothing is re-read later. (docs/configuration.md)
 */
export interface HelixConfig {
  readonly production: boolean;
  readonly database: string;
  readonly host: string;
  readonly port: number;
  readonly publicBaseUrl: string | undefined;
  readonly turnTimeoutMs: number;
  /** HELIX_ANSWER_MIN_FOCUS_COVERAGE: the answer contract's focus threshold for new runs (docs/solver.md). */
  readonly answerMinFocusCoverage: number;
  /** Concurrent turns per process and per owner, and how many may wait for a slot (src/service/runs/turnSlots.ts). */
  readonly turnLimits: TurnLimits;
  /**
   * HELIX_CREDENTIAL_CACHE_SECONDS (default 5, 0 turns it off): how long a verified `hlx_` key is
   * trusted without reading its rows again. Revocation takes effect at once (through this server,
   * any process on a shared PostgreSQL, or another process's commit to the SQLite file); this
   * bounds only a change missed while a PostgreSQL listening connection was down. src/auth/credentialCache.ts.
   */
  readonly credentialCacheTtlMs: number;
  readonly enabledScopes: ReadonlySet<string>;
  readonly bodyLimitBytes: number;
  readonly mcpBodyLimitBytes: number;
  /** HELIX_ROOM_AGENT_BODY_LIMIT: the JSON body limit of the room REST facade (SLR-16, ENV-02). */
  readonly roomBodyLimitBytes: number;
  /** HELIX_ROOM_INGRESS_BODY_LIMIT: the JSON body limit of the source ingress lane (ING-01, ING-03). */
  readonly roomIngressBodyLimitBytes: number;
  /** Hostnames (lower case, no port) admitted in `Host`; loopback names are added outside production. */
  readonly allowedHosts: ReadonlySet<string>;
  /** Exact browser origins admitted in `Origin`; any loopback origin is added outside production. */
  readonly allowedOrigins: ReadonlySet<string>;

  readonly localJwt:
    | { readonly secret: string; readonly issuer: string; readonly audience: string | undefined }
    | undefined;
  readonly logLevel: string;
  /** OpenTelemetry traces and metrics over OTLP/HTTP; off (the SDK never loaded) unless an endpoint is set. */
  readonly telemetry: TelemetryConfig;
  readonly sources: SourcesConfig;
  /** Production OAuth resource-server settings; undefined when none is configured (never in production). */
  readonly oauth: OAuthConfig | undefined;
  /** TRUST_PROXY: which peers may set X-Forwarded-*; undefined trusts nobody. */
  readonly trustProxy: TrustProxySetting | undefined;
  /** Header/body timeouts and the per-address connection cap. */
  readonly httpLimits: HttpLimits;
  /** Per-minute request limits; 0 turns one off. Pre-auth limits are per client IP. */
  readonly rateLimits: RateLimits;
  /** Model providers: the operator default, the key that seals owners' API keys, the SSRF allow-list. */
  readonly model: ModelConfig;
  /** The policy of every account the operator did not set by hand (src/config/accountPolicyConfig.ts). */
  readonly accountDefaults: AccountPolicy;
  /** Per-document bounds of `helix library add` (HELIX_LIBRARY_MAX_*); the server checks them at start-up too. */
  readonly libraryLimits: DocumentLimits;
  /** The optional embeddings endpoint of hybrid library search (HELIX_EMBEDDINGS_*); undefined ranks lexically. */
  readonly embeddings: EmbeddingsSettings | undefined;
  /** HELIX_ENVIRONMENT_ADAPTER_FIXTURES=1: the fixture-only adapter profile is enabled (never in production). */
  readonly environmentAdapterFixtures: boolean;
  /** HELIX_RUNTIME_APPROVAL_TRUSTED_PUBLIC_KEYS_JSON: trusted Ed25519 approval-host keys; empty fails closed (APR-04). */
  readonly runtimeApprovalKeys: readonly TrustedApprovalKey[];
  /** How much a room's sources may keep: observation retention and quota, ledger window (HELIX_ROOM_*). */
  readonly roomStorage: RoomStorageLimits;
}

export interface HttpLimits {
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  /** 0 turns the cap off; trusted proxies are never capped. */
  readonly maxConnectionsPerIp: number;
  /** HELIX_HTTP_MAX_CONNECTIONS: all open connections together; undefined derives it from the descriptor limit at start. */
  readonly maxConnections: number | undefined;
}

export interface RateLimits {
  readonly restPerIp: number;
  readonly mcpPerIp: number;
  readonly restPerPrincipal: number;
  readonly mcpPerPrincipal: number;
  /** The Shared Live Room REST facade (`/api/v1/rooms…`) has its own buckets (SLR-16). */
  readonly roomsPerIp: number;
  readonly roomsPerPrincipal: number;
  /** The console's source manager and credential claim (`/api/agi/realtime/…`, SRC-10): per IP and per signed-in account. */
  readonly roomSourcesPerIp: number;
  readonly roomSourcesPerAccount: number;
  /** The console's observer lane (`/api/agi/agent-run-observer/…`, OBS-15): per IP and per signed-in account. */
  readonly observerPerIp: number;
  readonly observerPerAccount: number;
  /** The source ingress lane (`/api/room-ingress/…`): per client IP before, per binding after the bearer check. */
  readonly ingressPerIp: number;
  readonly ingressPerBinding: number;
}

export const ASYMMETRIC_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const;

export { ConfigError } from './config/env.js';
export type { OAuthConfig } from './auth/oauthJwt.js';
export type { ModelConfig } from './config/modelConfig.js';
export { DEFAULT_OPENAI_BASE_URL, MAX_TOOL_CALLS } from './config/modelConfig.js';

export const TURN_TIMEOUT = { default: 120_000, min: 1_000, max: 900_000 } as const;
export const DEFAULT_PORT = 1522;
export const DEFAULT_BODY_LIMIT = 64 * 1024;

const turnTimeout = (env: Env): number => {
  const raw = value(env, 'HELIX_AGENT_TURN_TIMEOUT_MS');
  if (raw === undefined) return TURN_TIMEOUT.default;
  if (!/^\d+$/.test(raw)) throw new ConfigError('HELIX_AGENT_TURN_TIMEOUT_MS must be a whole number of milliseconds');
  return Math.min(TURN_TIMEOUT.max, Math.max(TURN_TIMEOUT.min, Number(raw)));
};

const answerMinFocusCoverage = (env: Env): number => {
  const raw = value(env, 'HELIX_ANSWER_MIN_FOCUS_COVERAGE');
  if (raw === undefined) return DEFAULT_MIN_FOCUS_COVERAGE;
  const share = /^(?:0(?:\.\d+)?|1(?:\.0+)?|\.\d+)$/.test(raw) ? Number(raw) : Number.NaN;
  if (Number.isNaN(share)) throw new ConfigError('HELIX_ANSWER_MIN_FOCUS_COVERAGE must be a decimal from 0 to 1');
  return share;
};

const localJwt = (env: Env, production: boolean): HelixConfig['localJwt'] => {
  if (value(env, 'HELIX_AGENT_ALLOW_LOCAL_HS256') !== '1') return undefined;
  if (production) {
    throw new ConfigError(
      'HELIX_AGENT_ALLOW_LOCAL_HS256=1 is refused in production (NODE_ENV=production); configure OAuth instead',
    );
  }
  const secret = value(env, 'HELIX_AGENT_LOCAL_JWT_SECRET');
  if (secret === undefined || secret.length < 32) {
    throw new ConfigError(
      'HELIX_AGENT_LOCAL_JWT_SECRET must have at least 32 characters when HELIX_AGENT_ALLOW_LOCAL_HS256=1',
    );
  }
  return {
    secret,
    issuer: value(env, 'HELIX_AGENT_LOCAL_JWT_ISSUER') ?? 'helix-local',
    audience: value(env, 'HELIX_AGENT_LOCAL_JWT_AUDIENCE'),
  };
};

const baseUrl = (env: Env): string | undefined => {
  const raw = value(env, 'HELIX_PUBLIC_BASE_URL') ?? value(env, 'CASIMIR_PUBLIC_BASE_URL');
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('HELIX_PUBLIC_BASE_URL must be an absolute URL such as https://helix.example.com');
  }
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '') {
    throw new ConfigError('HELIX_PUBLIC_BASE_URL must be an origin without path, query or fragment');
  }
  return url.origin;
};

/** HELIX_AGENT_DATABASE_SCOPES: an unknown id is a typo that would silently admit nothing, so it stops start-up. */
const enabledScopes = (env: Env): ReadonlySet<string> => {
  const raw = value(env, 'HELIX_AGENT_DATABASE_SCOPES');
  const ids =
    raw === undefined
      ? []
      : raw
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '');
  const unknown = ids.filter((id) => !SCOPE_CATALOG.has(id));
  if (unknown.length > 0) {
    throw new ConfigError(
      `HELIX_AGENT_DATABASE_SCOPES names unknown logical scope(s): ${unknown.join(', ')}; known: ${[...SCOPE_CATALOG.keys()].join(', ')}`,
    );
  }
  // No theory-registry source exists in this build, so enabling it could only ever answer
  // scope_unavailable: say so at start-up instead of on every run.
  const sourceless = ids.filter((id) => (SOURCELESS_SCOPES as readonly string[]).includes(id));
  if (sourceless.length > 0) {
    throw new ConfigError(
      `HELIX_AGENT_DATABASE_SCOPES enables ${sourceless.join(', ')}, which has no source in this build and cannot admit anything; remove it`,
    );
  }
  return new Set(ids);
};

/**
 * Catalog scopes this build has no capability source for (docs/auth.md, "Logical data scopes").
 * Start-up reads it before any source exists; src/sources/configuredSources.test.ts holds it to
 * what the sources really provide, and what is advertised is computed from the sources themselves.
 */
export const SOURCELESS_SCOPES = ['theory_registry'] as const;

/** HELIX_AGENT_ALLOWED_HOSTS: hostnames or host:port; the port is ignored (the socket already chose it). */
const allowedHosts = (env: Env, production: boolean, publicBaseUrl: string | undefined): ReadonlySet<string> => {
  const hosts = list(env, 'HELIX_AGENT_ALLOWED_HOSTS').map((h) => {
    const lower = h.toLowerCase();
    return lower.startsWith('[') ? lower.slice(0, lower.indexOf(']') + 1) : (lower.split(':', 1)[0] ?? lower);
  });
  if (publicBaseUrl !== undefined) hosts.push(new URL(publicBaseUrl).hostname.toLowerCase());
  if (!production) hosts.push('localhost', '127.0.0.1', '[::1]');
  return new Set(hosts);
};

const allowedOrigins = (env: Env, publicBaseUrl: string | undefined): ReadonlySet<string> => {
  const origins = list(env, 'HELIX_AGENT_ALLOWED_ORIGINS').map((o) => {
    try {
      return new URL(o).origin;
    } catch {
      throw new ConfigError(`HELIX_AGENT_ALLOWED_ORIGINS has an entry that is not an origin URL: ${o.slice(0, 80)}`);
    }
  });
  if (publicBaseUrl !== undefined) origins.push(publicBaseUrl);
  return new Set(origins);
};

const sources = (env: Env, production: boolean): SourcesConfig => ({
  repositoryRoots: list(env, 'HELIX_REPOSITORY_ROOTS'),
  boundRoom: {
    // ING-05: how old a room source's snapshot may be and still count as bound room evidence.
    maxAgeMs: integer(env, 'HELIX_BOUND_ROOM_EVIDENCE_MAX_AGE_MS', 60_000, 1_000, 3_600_000),
    adapterFixtures: adapterFixturesEnabled(env, production),
  },
  searchUrl: endpoint(env, 'HELIX_SEARXNG_URL'),
  scholarly: {
    ...present('openAlexUrl', endpoint(env, 'HELIX_OPENALEX_URL')),
    ...present('crossrefUrl', endpoint(env, 'HELIX_CROSSREF_URL')),
    ...present('arxivUrl', endpoint(env, 'HELIX_ARXIV_URL')),
    ...present('mailto', value(env, 'HELIX_SCHOLARLY_MAILTO')),
  },
});

/** `{ [key]: value }` when the variable is set, `{}` otherwise (optional properties stay absent, never undefined). */
const present = <K extends string>(key: K, setting: string | undefined): { [P in K]?: string } =>
  setting === undefined ? {} : ({ [key]: setting } as { [P in K]: string });

const required = (setting: string | undefined): string => {
  if (setting === undefined) throw new ConfigError('the OAuth configuration is incomplete');
  return setting;
};

const OAUTH_VARIABLES = [
  'HELIX_AGENT_OAUTH_ISSUER',
  'HELIX_AGENT_OAUTH_AUDIENCE',
  'HELIX_AGENT_OAUTH_JWKS_URL',
  'HELIX_AGENT_OAUTH_PROVIDER',
  'HELIX_AGENT_OAUTH_ALGORITHMS',
] as const;

/**
 * The OAuth section is all or nothing: a half-configured verifier would either admit too much or
 * nothing at all, so it stops start-up naming what is missing. Production requires it.
 */
const oauth = (env: Env, production: boolean): OAuthConfig | undefined => {
  const missing = OAUTH_VARIABLES.filter((name) => value(env, name) === undefined);
  if (missing.length === OAUTH_VARIABLES.length) {
    if (production) {
      throw new ConfigError(
        `production mode refuses to serve the protected resource without OAuth: set ${OAUTH_VARIABLES.join(', ')}`,
      );
    }
    return undefined;
  }
  if (missing.length > 0) throw new ConfigError(`the OAuth configuration is incomplete: set ${missing.join(', ')}`);
  const algorithms = list(env, 'HELIX_AGENT_OAUTH_ALGORITHMS');
  const refused = algorithms.filter((a) => !(ASYMMETRIC_ALGORITHMS as readonly string[]).includes(a));
  if (refused.length > 0) {
    throw new ConfigError(
      `HELIX_AGENT_OAUTH_ALGORITHMS admits only asymmetric algorithms (${ASYMMETRIC_ALGORITHMS.join(', ')}); refused: ${refused.join(', ')}`,
    );
  }
  // Every OAuth variable is set (checked above), so these readers cannot answer undefined.
  const jwksUrl = required(endpoint(env, 'HELIX_AGENT_OAUTH_JWKS_URL'));
  if (production && !jwksUrl.startsWith('https:'))
    throw new ConfigError('HELIX_AGENT_OAUTH_JWKS_URL must be https in production');
  const audience = required(value(env, 'HELIX_AGENT_OAUTH_AUDIENCE'));
  if (production) canonicalAudience(audience);
  const provider = required(value(env, 'HELIX_AGENT_OAUTH_PROVIDER'));
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(provider))
    throw new ConfigError('HELIX_AGENT_OAUTH_PROVIDER must be 1-100 characters of [A-Za-z0-9._-]');
  return { issuer: required(value(env, 'HELIX_AGENT_OAUTH_ISSUER')), audience, jwksUrl, provider, algorithms };
};

/**
 * The audience is the canonical resource identifier every protected-resource metadata document
 * advertises and a client sends as its RFC 8707 `resource`; RFC 9728 and the MCP authorization
 * spec need it to be an https URL (e.g. https://helix.example.com/mcp).
 */
const canonicalAudience = (audience: string): URL => {
  let url: URL;
  try {
    url = new URL(audience);
  } catch {
    throw new ConfigError(
      'HELIX_AGENT_OAUTH_AUDIENCE must be the canonical resource URL in production, e.g. https://helix.example.com/mcp',
    );
  }
  if (url.protocol !== 'https:' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new ConfigError(
      'HELIX_AGENT_OAUTH_AUDIENCE must be an https URL without fragment or credentials in production',
    );
  }
  return url;
};

/**
 * Production always has a configured public origin, so no request header can choose the origin of
 * metadata and challenge URLs: HELIX_PUBLIC_BASE_URL, else the audience's origin. The advertised
 * resource must live on that origin, or standard MCP clients refuse it.
 */
const productionBaseUrl = (
  publicBaseUrl: string | undefined,
  oauthConfig: OAuthConfig | undefined,
): string | undefined => {
  if (oauthConfig === undefined) return publicBaseUrl;
  const audienceOrigin = canonicalAudience(oauthConfig.audience).origin;
  if (publicBaseUrl !== undefined && publicBaseUrl !== audienceOrigin) {
    throw new ConfigError(
      `HELIX_AGENT_OAUTH_AUDIENCE (${audienceOrigin}) and HELIX_PUBLIC_BASE_URL (${publicBaseUrl}) must share one origin`,
    );
  }
  return audienceOrigin;
};

/** TRUST_PROXY: the proxies' exact addresses/CIDRs, or a hop count of private proxies (src/config/trustProxy.ts). */
const trustProxy = (env: Env): HelixConfig['trustProxy'] => {
  const raw = value(env, 'TRUST_PROXY');
  if (raw === undefined || raw === 'false') return undefined;
  try {
    return parseTrustProxy(raw);
  } catch (err) {
    if (!(err instanceof TrustProxyError)) throw err;
    throw new ConfigError(
      `TRUST_PROXY: ${err.message} (e.g. 10.0.0.5,10.0.1.0/24 or a hop count 1-${MAX_TRUSTED_HOPS})`,
    );
  }
};

/**
 * Slow-client limits: a request's headers and its whole body must arrive within these times, one
 * client address may hold only so many open connections, and all of them together stay within a
 * budget below the descriptor limit, so trickled bodies or idle sockets cannot use up the process's
 * file descriptors. Responses (event streams, long polls) are not limited.
 */
const httpLimits = (env: Env): HttpLimits => {
  const headersTimeoutMs = integer(env, 'HELIX_HTTP_HEADERS_TIMEOUT_MS', 10_000, 1_000, 120_000);
  const requestTimeoutMs = integer(env, 'HELIX_HTTP_REQUEST_TIMEOUT_MS', 30_000, 1_000, 600_000);
  if (requestTimeoutMs < headersTimeoutMs)
    throw new ConfigError('HELIX_HTTP_REQUEST_TIMEOUT_MS must be at least HELIX_HTTP_HEADERS_TIMEOUT_MS');
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    maxConnectionsPerIp: integer(env, 'HELIX_HTTP_MAX_CONNECTIONS_PER_IP', 256, 0, 1_000_000),
    maxConnections:
      value(env, 'HELIX_HTTP_MAX_CONNECTIONS') === undefined
        ? undefined
        : integer(env, 'HELIX_HTTP_MAX_CONNECTIONS', 0, 1, 1_000_000),
  };
};

const rateLimits = (env: Env): RateLimits => ({
  restPerIp: integer(env, 'HELIX_AGENT_IP_RATE_LIMIT', 600, 0, 1_000_000),
  mcpPerIp: integer(env, 'HELIX_MCP_IP_RATE_LIMIT', 600, 0, 1_000_000),
  restPerPrincipal: integer(env, 'HELIX_AGENT_PRINCIPAL_RATE_LIMIT', 300, 0, 1_000_000),
  mcpPerPrincipal: integer(env, 'HELIX_MCP_PRINCIPAL_RATE_LIMIT', 300, 0, 1_000_000),
  roomsPerIp: integer(env, 'HELIX_ROOM_AGENT_IP_RATE_LIMIT', 600, 0, 1_000_000),
  roomsPerPrincipal: integer(env, 'HELIX_ROOM_AGENT_PRINCIPAL_RATE_LIMIT', 300, 0, 1_000_000),
  roomSourcesPerIp: integer(env, 'HELIX_ROOM_SOURCE_BROWSER_IP_RATE_LIMIT', 600, 0, 1_000_000),
  roomSourcesPerAccount: integer(env, 'HELIX_ROOM_SOURCE_BROWSER_ACCOUNT_RATE_LIMIT', 300, 0, 1_000_000),
  observerPerIp: integer(env, 'HELIX_AGENT_RUN_OBSERVER_IP_RATE_LIMIT', 600, 0, 1_000_000),
  observerPerAccount: integer(env, 'HELIX_AGENT_RUN_OBSERVER_ACCOUNT_RATE_LIMIT', 300, 0, 1_000_000),
  ingressPerIp: integer(env, 'HELIX_ROOM_INGRESS_IP_RATE_LIMIT', 1_200, 0, 1_000_000),
  ingressPerBinding: integer(env, 'HELIX_ROOM_INGRESS_BINDING_RATE_LIMIT', 600, 0, 1_000_000),
});

/** A full batch of the reference connector (16 snapshots at their bounds) is about 180 KiB. */
const DEFAULT_INGRESS_BODY_LIMIT = 256 * 1024;

export interface ConfigOverrides {
  readonly database?: string;
  readonly host?: string;
  readonly port?: number;
}

export const loadConfig = (env: Env = process.env, overrides: ConfigOverrides = {}): HelixConfig => {
  const production = value(env, 'NODE_ENV') === 'production';
  const oauthConfig = oauth(env, production);
  const publicBaseUrl = production ? productionBaseUrl(baseUrl(env), oauthConfig) : baseUrl(env);
  return {
    production,
    database: overrides.database ?? value(env, 'HELIX_DATABASE_URL') ?? DEFAULT_DATABASE,
    host: overrides.host ?? value(env, 'HELIX_HOST') ?? '127.0.0.1',
    port: overrides.port ?? integer(env, 'HELIX_PORT', DEFAULT_PORT, 0, 65_535),
    publicBaseUrl,
    turnTimeoutMs: turnTimeout(env),
    answerMinFocusCoverage: answerMinFocusCoverage(env),
    credentialCacheTtlMs: integer(env, 'HELIX_CREDENTIAL_CACHE_SECONDS', 5, 0, 300) * 1000,
    turnLimits: {
      perProcess: integer(env, 'HELIX_MAX_CONCURRENT_TURNS', 32, 1, 10_000),
      perOwner: integer(env, 'HELIX_MAX_CONCURRENT_TURNS_PER_OWNER', 8, 1, 10_000),
      queue: integer(env, 'HELIX_MAX_QUEUED_TURNS', 64, 0, 100_000),
    },
    enabledScopes: enabledScopes(env),
    bodyLimitBytes: integer(env, 'HELIX_AGENT_BODY_LIMIT', DEFAULT_BODY_LIMIT, 1024, 10 * 1024 * 1024),
    mcpBodyLimitBytes: integer(env, 'HELIX_MCP_BODY_LIMIT', DEFAULT_BODY_LIMIT, 1024, 10 * 1024 * 1024),
    roomBodyLimitBytes: integer(env, 'HELIX_ROOM_AGENT_BODY_LIMIT', DEFAULT_BODY_LIMIT, 1024, 10 * 1024 * 1024),
    roomIngressBodyLimitBytes: integer(
      env,
      'HELIX_ROOM_INGRESS_BODY_LIMIT',
      DEFAULT_INGRESS_BODY_LIMIT,
      1024,
      1024 * 1024,
    ),
    allowedHosts: allowedHosts(env, production, publicBaseUrl),
    allowedOrigins: allowedOrigins(env, publicBaseUrl),

    localJwt: localJwt(env, production),
    logLevel: value(env, 'HELIX_LOG_LEVEL') ?? 'info',
    telemetry: telemetryConfig(env),
    sources: sources(env, production),
    oauth: oauthConfig,
    trustProxy: trustProxy(env),
    httpLimits: httpLimits(env),
    rateLimits: rateLimits(env),
    model: modelConfig(env, production),
    accountDefaults: accountPolicyDefaults(env),
    libraryLimits: libraryLimits(env),
    embeddings: embeddingsConfig(env, production),
    environmentAdapterFixtures: adapterFixturesEnabled(env, production),
    runtimeApprovalKeys: runtimeApprovalKeys(env),
    roomStorage: roomStorageLimits(env),
  };
};
