/**
 * The probe's configuration, read once from the environment. Every refusal is a ProbeConfigError
 * (exit 2) raised before any request is made, so a refused target is never contacted.
 *
 * Messages never echo a credential and never echo the raw base URL (it could carry userinfo);
 * at most they name the host.
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
export const SETTINGS = {
  baseUrl: ['CASIMIRBOT_MCP_PUBLIC_BASE_URL', 'HELIX_MCP_PUBLIC_BASE_URL'],
  allowLoopbackHttp: ['CASIMIRBOT_MCP_CONFORMANCE_ALLOW_LOOPBACK_HTTP', 'HELIX_MCP_CONFORMANCE_ALLOW_LOOPBACK_HTTP'],
  accessToken: ['CASIMIRBOT_MCP_ACCESS_TOKEN', 'HELIX_MCP_ACCESS_TOKEN'],
  openaiKey: ['OPENAI_API_KEY'],
  geminiKey: ['GEMINI_API_KEY'],
} as const satisfies Record<string, readonly string[]>;

export const REQUEST_TIMEOUT_MS = 10_000;

export interface ProbeConfig {
  /** The target's origin (scheme, host, port); every request stays on it. */
  readonly target: string;
  readonly accessToken: string | undefined;
  readonly openaiKey: string | undefined;
  readonly geminiKey: string | undefined;
  /** Every configured credential value, for redaction. */
  readonly secrets: readonly string[];
  readonly timeoutMs: number;
}

type Env = Readonly<Record<string, string | undefined>>;

/** An empty value counts as unset; the two spellings of one setting must not disagree. */
const setting = (env: Env, names: readonly string[]): string | undefined => {
  const present = names.filter((name) => (env[name] ?? '') !== '');
  const values = new Set(present.map((name) => env[name]));
  if (values.size > 1) throw new ProbeConfigError('ambiguous_setting', `${present.join(' and ')} are both set to different values; set only one`);
  return present.length > 0 ? env[present[0]!] : undefined;
};

/** 127.0.0.0/8, ::1 and the name localhost. The WHATWG URL parser has already normalized the IPv4 form. */
export const isLoopbackHost = (hostname: string): boolean => {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
};

/**
 * Only https, or plain http to a loopback host with the explicit opt-in. The opt-in never admits
 * plain http to any other host (contract, "Provider conformance probe").
 */
export const admitTarget = (raw: string | undefined, allowLoopbackHttp: boolean): string => {
  const name = SETTINGS.baseUrl.join(' or ');
  if (raw === undefined) {
    throw new ProbeConfigError('target_missing', `set ${name} to the public origin of the Helix deployment to probe (there is no default)`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ProbeConfigError('target_invalid', `${name} is not an absolute URL`);
  }
  if (url.username !== '' || url.password !== '') throw new ProbeConfigError('target_has_userinfo', `${name} must not carry credentials`);
  if (url.protocol === 'http:') {
    if (!isLoopbackHost(url.hostname)) {
      throw new ProbeConfigError('plain_http_not_loopback', `refusing plain http to non-loopback host ${url.host}: only https is allowed there`);
    }
    if (!allowLoopbackHttp) {
      throw new ProbeConfigError(
        'loopback_http_not_opted_in',
        `plain http to loopback host ${url.host} needs ${SETTINGS.allowLoopbackHttp.join(' or ')}=1`,
      );
    }
  } else if (url.protocol !== 'https:') {
    throw new ProbeConfigError('scheme_not_allowed', `${name} must use https (scheme ${url.protocol} refused)`);
  }
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || raw.includes('?') || raw.includes('#')) {
    throw new ProbeConfigError('target_not_origin', `${name} must be an origin without path, query or fragment`);
  }
  return url.origin;
};

const opted = (env: Env): boolean => {
  const value = setting(env, SETTINGS.allowLoopbackHttp);
  if (value === undefined || value === '0') return false;
  if (value === '1') return true;
  throw new ProbeConfigError('invalid_opt_in', `${SETTINGS.allowLoopbackHttp.join(' or ')} must be 1 or unset`);
};

/** RFC 6750 §2.1 b64token; anything else cannot travel in an Authorization header unaltered. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

export const readProbeConfig = (env: Env): ProbeConfig => {
  const accessToken = setting(env, SETTINGS.accessToken);
  const openaiKey = setting(env, SETTINGS.openaiKey);
  const geminiKey = setting(env, SETTINGS.geminiKey);
  if (accessToken !== undefined && !B64TOKEN.test(accessToken)) {
    throw new ProbeConfigError('invalid_access_token', `${SETTINGS.accessToken.join(' or ')} is not a bearer token (RFC 6750 b64token)`);
  }
  const target = admitTarget(setting(env, SETTINGS.baseUrl), opted(env));
  const secrets = [accessToken, openaiKey, geminiKey].filter((s): s is string => s !== undefined);
  return { target, accessToken, openaiKey, geminiKey, secrets, timeoutMs: REQUEST_TIMEOUT_MS };
};
