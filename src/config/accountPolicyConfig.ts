import {
  ACCOUNT_FEATURES,
  AccountPolicyError,
  featuresFrom,
  parseDecision,
  parseFeatureName,
  type AccountPolicy,
} from '../domain/accountPolicy.js';
import { ConfigError, list, value, type Env } from './env.js';

/** The features an account has unless the operator set its policy otherwise. */
export const DEFAULT_ACCOUNT_FEATURES = ['model_providers'] as const;

/**
 * The deployment's default account policy: HELIX_ACCOUNT_DEFAULT_FEATURES (comma-separated feature
 * names, `none` for none) and HELIX_ACCOUNT_DEFAULT_CAPABILITIES (`admit` or `deny`). An operator who
 * wants every account closed until admitted by hand sets the latter to `deny`.
 */
export const accountPolicyDefaults = (env: Env): AccountPolicy => {
  const raw = value(env, 'HELIX_ACCOUNT_DEFAULT_FEATURES');
  try {
    const features =
      raw === undefined
        ? [...DEFAULT_ACCOUNT_FEATURES]
        : raw === 'none'
          ? []
          : list(env, 'HELIX_ACCOUNT_DEFAULT_FEATURES').map(parseFeatureName);
    const decision = parseDecision(value(env, 'HELIX_ACCOUNT_DEFAULT_CAPABILITIES') ?? 'admit');
    return { features: featuresFrom(features), defaultCapability: decision, capabilities: {} };
  } catch (err) {
    if (!(err instanceof AccountPolicyError)) throw err;
    throw new ConfigError(
      `HELIX_ACCOUNT_DEFAULT_FEATURES / HELIX_ACCOUNT_DEFAULT_CAPABILITIES: ${err.message} (features: ${ACCOUNT_FEATURES.join(', ')})`,
    );
  }
};
