import {
  DEPLOYMENT_SETTINGS,
  isLoopbackHost,
  parseOrigin,
  ProbeConfigError,
  readDeploymentSettings,
  REQUEST_TIMEOUT_MS,
  setting,
  type DeploymentSettings,
  type Env,
} from '../deploymentProbe/settings.js';

export const REPORT_SCHEMA = 'casimirbot.mcp_provider_conformance.v1';

/**
 * The probe's settings: the deployment settings, then the provider keys and models. The two
 * provider base URLs exist for tests only: they are honoured with the loopback opt-in and for a
 * loopback origin, and refused otherwise, so a real key can only ever go to the real provider.
 */
export const SETTINGS = {
  ...DEPLOYMENT_SETTINGS,
  openaiKey: ['OPENAI_API_KEY'],
  geminiKey: ['GEMINI_API_KEY'],
  openaiModel: ['OPENAI_MODEL'],
  geminiModel: ['GEMINI_MODEL'],
  openaiBaseUrl: ['HELIX_MCP_CONFORMANCE_OPENAI_BASE_URL'],
  geminiBaseUrl: ['HELIX_MCP_CONFORMANCE_GEMINI_BASE_URL'],
} as const satisfies Record<string, readonly string[]>;

/** A model call that lists and calls a remote MCP tool takes far longer than a plain request. */
export const PROVIDER_TIMEOUT_MS = 120_000;

export const PROVIDER_NAMES = ['openai', 'gemini'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export const PROVIDER_DEFAULTS: Readonly<Record<ProviderName, { readonly origin: string; readonly model: string }>> = {
  openai: { origin: 'https://api.openai.com', model: 'gpt-5-mini' },
  gemini: { origin: 'https://generativelanguage.googleapis.com', model: 'gemini-2.5-flash' },
};

export interface ProviderSettings {
  readonly key: string;
  readonly model: string;
  /** The provider's origin: the public endpoint, or a loopback fixture in tests. */
  readonly origin: string;
  readonly originOverridden: boolean;
}

export interface ProbeConfig extends DeploymentSettings {
  readonly providers: Readonly<Partial<Record<ProviderName, ProviderSettings>>>;
  /** Every configured credential value, for redaction. */
  readonly secrets: readonly string[];
  readonly timeoutMs: number;
  readonly providerTimeoutMs: number;
}

const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$/;

/** A test-only provider origin: loopback, opted in, a bare origin. Anything else fails closed. */
const admitProviderOverride = (name: string, raw: string, optIn: boolean): string => {
  if (!optIn) {
    throw new ProbeConfigError(
      'provider_override_not_opted_in',
      `${name} is for tests only and needs ${DEPLOYMENT_SETTINGS.allowLoopbackHttp.join(' or ')}=1`,
    );
  }
  const url = parseOrigin(name, raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ProbeConfigError('scheme_not_allowed', `${name} must use http or https`);
  if (!isLoopbackHost(url.hostname)) {
    throw new ProbeConfigError(
      'provider_override_not_loopback',
      `${name} may only name a loopback host (refused ${url.host})`,
    );
  }
  return url.origin;
};

const KEYS = { openai: SETTINGS.openaiKey, gemini: SETTINGS.geminiKey } as const;
const MODELS = { openai: SETTINGS.openaiModel, gemini: SETTINGS.geminiModel } as const;
const ORIGINS = { openai: SETTINGS.openaiBaseUrl, gemini: SETTINGS.geminiBaseUrl } as const;

const readProvider = (env: Env, provider: ProviderName, optIn: boolean): ProviderSettings | undefined => {
  // An override is checked even without a key: a misconfigured test must not pass silently.
  const rawOrigin = setting(env, ORIGINS[provider]);
  const origin = rawOrigin === undefined ? undefined : admitProviderOverride(ORIGINS[provider][0], rawOrigin, optIn);
  const model = setting(env, MODELS[provider]) ?? PROVIDER_DEFAULTS[provider].model;
  if (!MODEL_NAME.test(model))
    throw new ProbeConfigError('invalid_model', `${MODELS[provider][0]} is not a model name`);
  const key = setting(env, KEYS[provider]);
  if (key === undefined) return undefined;
  return { key, model, origin: origin ?? PROVIDER_DEFAULTS[provider].origin, originOverridden: origin !== undefined };
};

export const readProbeConfig = (env: Env): ProbeConfig => {
  const deployment = readDeploymentSettings(env);
  const providers: Partial<Record<ProviderName, ProviderSettings>> = {};
  for (const name of PROVIDER_NAMES) {
    const provider = readProvider(env, name, deployment.loopbackOptIn);
    if (provider !== undefined) providers[name] = provider;
  }
  const secrets = [deployment.accessToken, ...Object.values(providers).map((p) => p.key)].filter(
    (s): s is string => s !== undefined,
  );
  return { ...deployment, providers, secrets, timeoutMs: REQUEST_TIMEOUT_MS, providerTimeoutMs: PROVIDER_TIMEOUT_MS };
};
