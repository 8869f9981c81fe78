import { guardedFetch } from '../deploymentProbe/guardedFetch.js';
import type { Check } from '../deploymentProbe/report.js';
import { startPhase } from './budget.js';
import { cleanup } from './cleanup.js';
import type { HarnessConfig } from './config.js';
import { readOnlyChecks } from './readOnlyChecks.js';
import type { Outcome } from './report.js';
import { noResources, type Resources } from './resources.js';
import { mutationChecks } from './roomLifecycle.js';

/**
 * Network mode (HAR-04, HAR-07, HAR-09): the automated steps must end before the cleanup window
 * and cleanup must end with the total budget. Cleanup runs whatever happened before it, a harness
 * bug included (rethrown afterwards, so the run still exits nonzero), so nothing the harness knows
 * of is left active.
 */
export const runAcceptance = async (config: HarnessConfig, clock: () => number = Date.now): Promise<Outcome> => {
  const started = clock();
  const fetch = guardedFetch(config.target, config.timeoutMs);
  const mutationToken = config.allowMutation ? config.accessToken : undefined;
  const resources = noResources();
  const checks: Check[] = [];
  const cleanupDeadline = started + config.totalTimeoutMs;
  const main = startPhase(config.target, fetch, 'automated steps', cleanupDeadline - config.cleanupReserveMs, started);
  let bug: unknown;
  try {
    checks.push(...(await readOnlyChecks(main.ctx, config.accessToken)));
    if (mutationToken !== undefined)
      checks.push(...(await mutationChecks(main.ctx, mutationToken, config.roomIdempotencyKey, resources)));
  } catch (err) {
    bug = err;
  } finally {
    main.end();
  }
  const cleaned = await cleanUp(config, mutationToken, resources, cleanupDeadline, clock);
  if (bug !== undefined) throw bug;
  const { status, detail } = cleaned;
  return { checks: [...checks, ...cleaned.checks], roomId: resources.roomId, cleanup: { status, detail } };
};

const cleanUp = async (
  config: HarnessConfig,
  token: string | undefined,
  resources: Resources,
  deadline: number,
  clock: () => number,
) => {
  if (token === undefined) return { checks: [], status: 'not_needed' as const, detail: 'no mutation was enabled' };
  const window = startPhase(config.target, guardedFetch(config.target, config.timeoutMs), 'cleanup', deadline, clock());
  try {
    return await cleanup(window.ctx, token, resources);
  } finally {
    window.end();
  }
};
