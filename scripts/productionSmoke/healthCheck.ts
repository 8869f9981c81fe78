import { describeFailure, readBoundedJson, type ProbeContext } from '../deploymentProbe/guardedFetch.js';
import { check, type Check } from '../deploymentProbe/report.js';

/** GET /healthz answers `{"status":"ok"}`: the process is up and routing (it touches no store). */
export const healthCheck = async (ctx: ProbeContext): Promise<Check> => {
  const id = 'health.healthz';
  try {
    const response = await ctx.fetch(`${ctx.target}/healthz`, { headers: { accept: 'application/json' } });
    const body = (await readBoundedJson(response)) as { status?: unknown } | undefined;
    if (response.status !== 200) return check(id, 'failed', `GET /healthz answered ${response.status}, expected 200`);
    if (body?.status !== 'ok') return check(id, 'failed', 'GET /healthz answered 200 without {"status":"ok"}');
    return check(id, 'passed', 'GET /healthz answered 200 {"status":"ok"}');
  } catch (err) {
    return check(id, 'failed', `GET /healthz: ${describeFailure(err)}`);
  }
};
