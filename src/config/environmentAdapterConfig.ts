import { ConfigError, value, type Env } from './env.js';

export const ADAPTER_FIXTURES_VARIABLE = 'HELIX_ENVIRONMENT_ADAPTER_FIXTURES';

/**
 * HELIX_ENVIRONMENT_ADAPTER_FIXTURES=1 enables the fixture-only synthetic adapter profile
 * (ING-04: "enabled only by an explicit test flag and never in production"). Production start-up
 * refuses the flag rather than ignoring it, so a misconfigured deployment never runs believing
 * it has fixtures. Only `1` enables; any other value is a mistake worth stopping for.
 */
export const adapterFixturesEnabled = (env: Env, production: boolean): boolean => {
  const raw = value(env, ADAPTER_FIXTURES_VARIABLE);
  if (raw === undefined || raw === '0') return false;
  if (raw !== '1') throw new ConfigError(`${ADAPTER_FIXTURES_VARIABLE} must be 1 or unset`);
  if (production) {
    throw new ConfigError(`${ADAPTER_FIXTURES_VARIABLE}=1 is refused in production (NODE_ENV=production)`);
  }
  return true;
};
