/**
 * `npm run smoke:production`: production checklist step 10 (docs/production.md) against a deployed
 * Helix. It checks /healthz, both protected-resource metadata documents and the unauthenticated
 * 401 challenge, then starts one run with a 60-second budget and one step, inspects it, cancels it
 * and replays the cancel. Settings are the provider conformance probe's (target origin, loopback
 * opt-in, access token, which is required here). It prints one redacted `helix.production_smoke.v1`
 * report on stdout and a summary on stderr. Exit 0: nothing failed; 1: a check failed; 2: bad
 * configuration (nothing was requested).
 */
import { protectedResourceMetadataChecks, unauthenticatedChallengeCheck } from './deploymentProbe/discoveryChecks.js';
import { guardedFetch, type ProbeContext } from './deploymentProbe/guardedFetch.js';
import type { Check } from './deploymentProbe/report.js';
import { runProbe } from './deploymentProbe/runProbe.js';
import { readSmokeConfig, SMOKE_SCHEMA, type SmokeConfig } from './productionSmoke/config.js';
import { healthCheck } from './productionSmoke/healthCheck.js';
import { runLifecycleChecks } from './productionSmoke/runLifecycleChecks.js';

const runChecks = async (config: SmokeConfig): Promise<Check[]> => {
  const ctx: ProbeContext = {
    target: config.target,
    fetch: guardedFetch(config.target, config.timeoutMs),
    ...(config.accessToken === undefined ? {} : { accessToken: config.accessToken }),
  };
  return [
    await healthCheck(ctx),
    ...(await protectedResourceMetadataChecks(ctx)),
    await unauthenticatedChallengeCheck(ctx),
    ...(await runLifecycleChecks(ctx, config.accessToken)),
  ];
};

process.exitCode = await runProbe(
  { name: 'smoke:production', schema: SMOKE_SCHEMA, title: 'production smoke', readConfig: readSmokeConfig, runChecks },
  process.env,
);
