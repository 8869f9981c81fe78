/**
 * The settings every deployment probe reads (`npm run mcp:provider-conformance`, `npm run
 * smoke:production`, `npm run helix:shared-room:live-acceptance`): the target origin, the loopback
 * opt-in, the access token and bounded numbers. Every refusal
 * is a ProbeConfigError (exit 2) raised before any request is made, so a refused target is never
 * contacted.
 *
 * Messages never echo a credential and never echo a raw URL (it could carry userinfo); at most
 * they name the host.
 */
export const CONFIG_ERROR_CODES = [
  'target_missing',
  'ambiguous_setting',
  'target_invalid',
  'target_not_origin',
  'target_has_userinfo',
  'scheme_not_allowed',
  'loopback_http_not_opted_in',
  'plain_http_not_loopback',
  'invalid_opt_in',
  'invalid_access_token',
  'access_token_missing',
  'invalid_model',
  'provider_override_not_opted_in',
  'provider_override_not_loopback',
  'invalid_number',
  'invalid_idempotency_key',
  'unexpected_arguments',
] as const;
export type ConfigErrorCode = (typeof CONFIG_ERROR_CODES)[number];

export class ProbeConfigError extends Error {
  override readonly name = 'ProbeConfigError';
  constructor(
    readonly code: ConfigErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Each setting has the contract's CASIMIRBOT_ name and a HELIX_ alias for a Helix deployment. */
export const DEPLOYMENT_SETTINGS = {
  baseUrl: ['CASIMIRBOT_MCP_PUBLIC_BASE_URL', 'HELIX_MCP_PUBLIC_BASE_URL'],
  allowLoopbackHttp: ['CASIMIRBOT_MCP_CONFORMANCE_ALLOW_LOOPBACK_HTTP', 'HELIX_MCP_CONFORMANCE_ALLOW_LOOPBACK_HTTP'],
  accessToken: ['CASIMIRBOT_MCP_ACCESS_TOKEN', 'HELIX_MCP_ACCESS_TOKEN'],
} as const satisfies Record<string, readonly string[]>;

/** Per request to the target; the provider invocations have their own, longer bound. */
export const REQUEST_TIMEOUT_MS = 10_000;

export type Env = Readonly<Record<string, string | undefined>>;

/** The target of a probe, as every probe reads it. */
export interface DeploymentSettings {
  /** The target's origin (scheme, host, port); every request to Helix stays on it. */
  readonly target: string;
  /** True when the target is a loopback host (a remote provider cannot reach it). */
  readonly targetIsLoopback: boolean;
  readonly loopbackOptIn: boolean;
  readonly accessToken: string | undefined;
}

/** An empty value counts as unset; the two spellings of one setting must not disagree. */
export const setting = (env: Env, names: readonly string[]): string | undefined => {
  const present = names.filter((name) => (env[name] ?? '') !== '');
  const values = new Set(present.map((name) => env[name]));
  if (values.size > 1)
    throw new ProbeConfigError(
      'ambiguous_setting',
      `${present.join(' and ')} are both set to different values; set only one`,
    );
  const [first] = present;
  return first === undefined ? undefined : env[first];
};

/** 127.0.0.0/8, ::1 and the name localhost. The WHATWG URL parser has already normalized the IPv4 form. */
export const isLoopbackHost = (hostname: string): boolean => {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
};

/** An absolute URL that is a bare origin: no userinfo, path, query or fragment. */
export const parseOrigin = (name: string, raw: string): URL => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ProbeConfigError('target_invalid', `${name} is not an absolute URL`);
  }
  if (url.username !== '' || url.password !== '')
    throw new ProbeConfigError('target_has_userinfo', `${name} must not carry credentials`);
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || raw.includes('?') || raw.includes('#')) {
    throw new ProbeConfigError('target_not_origin', `${name} must be an origin without path, query or fragment`);
  }
  return url;
};

/** The variable names a refusal message cites: the contract's names joined with " or ". */
export interface TargetSettingNames {
  readonly baseUrl: string;
  readonly allowLoopbackHttp: string;
}

const PROBE_TARGET_NAMES: TargetSettingNames = {
  baseUrl: DEPLOYMENT_SETTINGS.baseUrl.join(' or '),
  allowLoopbackHttp: DEPLOYMENT_SETTINGS.allowLoopbackHttp.join(' or '),
};

/**
 * Only https, or plain http to a loopback host with the explicit opt-in. The opt-in never admits
 * plain http to any other host (contract, "Provider conformance probe").
 */
export const admitTarget = (
  raw: string | undefined,
  allowLoopbackHttp: boolean,
  names: TargetSettingNames = PROBE_TARGET_NAMES,
): string => {
  const name = names.baseUrl;
  if (raw === undefined) {
    throw new ProbeConfigError(
      'target_missing',
      `set ${name} to the public origin of the Helix deployment to probe (there is no default)`,
    );
  }
  const url = parseOrigin(name, raw);
  if (url.protocol === 'http:') {
    if (!isLoopbackHost(url.hostname)) {
      throw new ProbeConfigError(
        'plain_http_not_loopback',
        `${name}: refusing plain http to non-loopback host ${url.host}; only https is allowed there`,
      );
    }
    if (!allowLoopbackHttp) {
      throw new ProbeConfigError(
        'loopback_http_not_opted_in',
        `plain http to loopback host ${url.host} needs ${names.allowLoopbackHttp}=1`,
      );
    }
  } else if (url.protocol !== 'https:') {
    throw new ProbeConfigError('scheme_not_allowed', `${name} must use https (scheme ${url.protocol} refused)`);
  }
  return url.origin;
};

/** A `1`-or-unset switch (`0` also means off); anything else is refused rather than guessed. */
export const readSwitch = (env: Env, names: readonly string[]): boolean => {
  const value = setting(env, names);
  if (value === undefined || value === '0') return false;
  if (value === '1') return true;
  throw new ProbeConfigError('invalid_opt_in', `${names.join(' or ')} must be 1 or unset`);
};

/** A whole decimal number within [min, max] (no sign, unit or exponent); unset answers the fallback. */
export const readBoundedInteger = (
  env: Env,
  name: string,
  bounds: { readonly min: number; readonly max: number; readonly fallback: number },
): number => {
  const value = setting(env, [name]);
  if (value === undefined) return bounds.fallback;
  const parsed = /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
  if (!(parsed >= bounds.min && parsed <= bounds.max)) {
    throw new ProbeConfigError(
      'invalid_number',
      `${name} must be a whole number from ${bounds.min} through ${bounds.max}`,
    );
  }
  return parsed;
};

/** RFC 6750 §2.1 b64token; anything else cannot travel in an Authorization header unaltered. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** The bearer, if set; the message names the variable, never the value. */
export const readAccessToken = (env: Env, names: readonly string[]): string | undefined => {
  const accessToken = setting(env, names);
  if (accessToken !== undefined && !B64TOKEN.test(accessToken)) {
    throw new ProbeConfigError(
      'invalid_access_token',
      `${names.join(' or ')} is not a bearer token (RFC 6750 b64token)`,
    );
  }
  return accessToken;
};

export const readDeploymentSettings = (env: Env): DeploymentSettings => {
  const accessToken = readAccessToken(env, DEPLOYMENT_SETTINGS.accessToken);
  const loopbackOptIn = readSwitch(env, DEPLOYMENT_SETTINGS.allowLoopbackHttp);
  const target = admitTarget(setting(env, DEPLOYMENT_SETTINGS.baseUrl), loopbackOptIn);
  return { target, targetIsLoopback: isLoopbackHost(new URL(target).hostname), loopbackOptIn, accessToken };
};
