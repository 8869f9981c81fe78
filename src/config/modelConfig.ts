import { ConfigError, integer, list, secretValue, value, type Env } from './env.js';
import { checkBaseUrlShape, normalizeHostEntry, type BaseUrlPolicy } from '../net/baseUrlPolicy.js';
import { parseCidr, type Cidr } from '../net/ipAddress.js';
import { admitsFixedHost } from '../net/resolveDestination.js';
import {
  PROVIDER_KINDS,
  REASONING_EFFORTS,
  type ProviderKind,
  type ProviderSettings,
  type ReasoningEffort,
} from '../providers/providerSettings.js';
import { SecretBox, decodeSecretKey } from '../providers/secretBox.js';
import { codexEndpointsFromEnv, type CodexEndpoints } from '../model/codex/endpoints.js';
import { MODEL_OUTPUT_LIMITS } from '../model/port.js';
import { checkOwnerKey, helixHomeFromEnv } from '../model/codex/credentialStore.js';

export interface ModelConfig {
  /** Used for owners without a registration of their own; undefined for HELIX_MODEL_PROVIDER=none. */
  readonly defaultProvider: ProviderSettings | undefined;
  /** HELIX_MODEL_MAX_TOOL_CALLS: tool calls one turn may make, 1-64. */
  readonly maxToolCalls: number;
  /** HELIX_MODEL_MAX_RESPONSE_BYTES / HELIX_MODEL_MAX_TURN_OUTPUT_CHARS: what one call and one turn may stream. */
  readonly outputLimits: { readonly maxResponseBytes: number; readonly maxTurnOutputChars: number };
  /** Seals owners' provider API keys; undefined when no key is configured (registering a key then answers 503). */
  readonly secretBox: SecretBox | undefined;
  /**
   * Where owners' registered providers may point: HELIX_MODEL_PROVIDER_ALLOWED_HOSTS (undefined
   * admits any host; https only in production) and HELIX_MODEL_PROVIDER_ALLOWED_CIDRS (non-public
   * ranges admitted besides public addresses). The operator default is not subject to it.
   */
  readonly ownerProviderPolicy: BaseUrlPolicy;
  /** Where the operator's `helix login codex` lives, for HELIX_MODEL_PROVIDER=codex-subscription. */
  readonly codex: CodexLocation;
}

export interface CodexLocation {
  /** HELIX_HOME (default ~/.helix); the login is `<home>/codex/<owner>.json`. */
  readonly home: string;
  /** HELIX_CODEX_OWNER (default `local`, the CLI's default). */
  readonly ownerKey: string;
  /** The pinned origins; a loopback fixture only through HELIX_CODEX_TEST_ORIGIN outside production. */
  readonly endpoints: CodexEndpoints;
}

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const MAX_TOOL_CALLS = { default: 12, min: 1, max: 64 } as const;

const providerSecretBox = (env: Env, production: boolean): SecretBox | undefined => {
  const encoded = secretValue(env, 'HELIX_PROVIDER_SECRET_KEY', production);
  if (encoded === undefined) return undefined;
  const key = decodeSecretKey(encoded);
  if (key === undefined) {
    throw new ConfigError(
      'HELIX_PROVIDER_SECRET_KEY must be the base64 of exactly 32 random bytes (e.g. `openssl rand -base64 32`)',
    );
  }
  return new SecretBox(key);
};

const modelUrl = (env: Env, name: string): string | undefined => {
  const raw = value(env, name);
  if (raw === undefined) return undefined;
  const check = checkBaseUrlShape(raw);
  if (!check.ok) throw new ConfigError(`${name} ${check.reason}`);
  return check.url;
};

/** The operator default provider. Each kind needs exactly what its wire protocol needs; the rest is refused. */
const defaultProvider = (env: Env, production: boolean): ProviderSettings | undefined => {
  const kind = value(env, 'HELIX_MODEL_PROVIDER') ?? 'none';
  if (kind === 'none') return undefined;
  if (!(PROVIDER_KINDS as readonly string[]).includes(kind)) {
    throw new ConfigError(`HELIX_MODEL_PROVIDER must be one of none, ${PROVIDER_KINDS.join(', ')}`);
  }
  const model = value(env, 'HELIX_MODEL');
  if (model === undefined)
    throw new ConfigError(`HELIX_MODEL (the model name) is required when HELIX_MODEL_PROVIDER=${kind}`);
  const effort = value(env, 'HELIX_MODEL_REASONING_EFFORT');
  if (effort !== undefined && !(REASONING_EFFORTS as readonly string[]).includes(effort)) {
    throw new ConfigError(`HELIX_MODEL_REASONING_EFFORT must be one of ${REASONING_EFFORTS.join(', ')}`);
  }
  const reasoning = effort === undefined ? {} : { reasoningEffort: effort as ReasoningEffort };
  const baseUrl = modelUrl(env, 'HELIX_MODEL_BASE_URL');
  const apiKey = secretValue(env, 'HELIX_MODEL_API_KEY', production);
  switch (kind as ProviderKind) {
    case 'codex-subscription':
      // The subscription's endpoints are pinned and its credentials come from the Codex login.
      if (baseUrl !== undefined || apiKey !== undefined) {
        throw new ConfigError(
          'HELIX_MODEL_BASE_URL and HELIX_MODEL_API_KEY are not used with HELIX_MODEL_PROVIDER=codex-subscription; unset them',
        );
      }
      return { kind: 'codex-subscription', model, ...reasoning };
    case 'openai-responses':
      if (apiKey === undefined)
        throw new ConfigError(
          'HELIX_MODEL_API_KEY (or HELIX_MODEL_API_KEY_FILE) is required when HELIX_MODEL_PROVIDER=openai-responses',
        );
      return { kind: 'openai-responses', baseUrl: baseUrl ?? DEFAULT_OPENAI_BASE_URL, apiKey, model, ...reasoning };
    case 'chat-completions':
      if (baseUrl === undefined)
        throw new ConfigError('HELIX_MODEL_BASE_URL is required when HELIX_MODEL_PROVIDER=chat-completions');
      return { kind: 'chat-completions', baseUrl, ...(apiKey === undefined ? {} : { apiKey }), model, ...reasoning };
  }
};

const codexLocation = (env: Env): CodexLocation => {
  let endpoints: CodexEndpoints;
  try {
    endpoints = codexEndpointsFromEnv(env);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  const owner = value(env, 'HELIX_CODEX_OWNER') ?? 'local';
  try {
    checkOwnerKey(owner);
  } catch {
    throw new ConfigError('HELIX_CODEX_OWNER must be 1-128 letters, digits, dots, dashes or underscores');
  }
  return { home: helixHomeFromEnv(env), ownerKey: owner, endpoints };
};

const allowedCidrs = (env: Env): Cidr[] =>
  list(env, 'HELIX_MODEL_PROVIDER_ALLOWED_CIDRS').map((entry) => {
    const range = parseCidr(entry);
    if (range === undefined) {
      throw new ConfigError(
        `HELIX_MODEL_PROVIDER_ALLOWED_CIDRS entries must be IP addresses or CIDR ranges with the host bits zero (got ${JSON.stringify(entry)})`,
      );
    }
    return range;
  });

/**
 * The owner provider policy. A listed host that names a refused address itself (`127.0.0.1`,
 * `[::1]`, `localhost`) could never be used, since addresses are admitted only by range: that is a
 * start-up error naming the fix rather than a registration that silently always fails.
 */
const ownerProviderPolicy = (env: Env, production: boolean): BaseUrlPolicy => {
  const hosts = list(env, 'HELIX_MODEL_PROVIDER_ALLOWED_HOSTS').map(normalizeHostEntry);
  const policy = {
    production,
    allowedHosts: hosts.length === 0 ? undefined : new Set(hosts),
    allowedCidrs: allowedCidrs(env),
  };
  const unusable = hosts.find((host) => admitsFixedHost(host, policy) === false);
  if (unusable !== undefined) {
    throw new ConfigError(
      `HELIX_MODEL_PROVIDER_ALLOWED_HOSTS lists ${unusable}, a non-public address; admit it in HELIX_MODEL_PROVIDER_ALLOWED_CIDRS as well (for example 127.0.0.1/32 or ::1/128), or remove it`,
    );
  }
  return policy;
};

export const modelConfig = (env: Env, production: boolean): ModelConfig => ({
  defaultProvider: defaultProvider(env, production),
  maxToolCalls: integer(
    env,
    'HELIX_MODEL_MAX_TOOL_CALLS',
    MAX_TOOL_CALLS.default,
    MAX_TOOL_CALLS.min,
    MAX_TOOL_CALLS.max,
  ),
  outputLimits: {
    maxResponseBytes: integer(
      env,
      'HELIX_MODEL_MAX_RESPONSE_BYTES',
      MODEL_OUTPUT_LIMITS.responseBytes.default,
      MODEL_OUTPUT_LIMITS.responseBytes.min,
      MODEL_OUTPUT_LIMITS.responseBytes.max,
    ),
    maxTurnOutputChars: integer(
      env,
      'HELIX_MODEL_MAX_TURN_OUTPUT_CHARS',
      MODEL_OUTPUT_LIMITS.turnChars.default,
      MODEL_OUTPUT_LIMITS.turnChars.min,
      MODEL_OUTPUT_LIMITS.turnChars.max,
    ),
  },
  secretBox: providerSecretBox(env, production),
  ownerProviderPolicy: ownerProviderPolicy(env, production),
  codex: codexLocation(env),
});
