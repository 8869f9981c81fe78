import {
  DEPLOYMENT_SETTINGS,
  ProbeConfigError,
  readDeploymentSettings,
  REQUEST_TIMEOUT_MS,
  type DeploymentSettings,
  type Env,
} from '../deploymentProbe/settings.js';

export const SMOKE_SCHEMA = 'helix.production_smoke.v1';

export interface SmokeConfig extends DeploymentSettings {
  readonly accessToken: string;
  readonly secrets: readonly string[];
  readonly timeoutMs: number;
}

/**
 * The smoke reads the same settings as the provider conformance probe (one environment serves
 * both, production checklist step 10), but the access token is required: a smoke that cannot
 * start its run would pass without having exercised anything.
 */
export const readSmokeConfig = (env: Env): SmokeConfig => {
  const deployment = readDeploymentSettings(env);
  const { accessToken } = deployment;
  if (accessToken === undefined) {
    throw new ProbeConfigError(
      'access_token_missing',
      `set ${DEPLOYMENT_SETTINGS.accessToken.join(' or ')}: the smoke starts, inspects and cancels one run`,
    );
  }
  return { ...deployment, accessToken, secrets: [accessToken], timeoutMs: REQUEST_TIMEOUT_MS };
};
