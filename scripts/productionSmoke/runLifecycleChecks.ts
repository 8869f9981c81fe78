import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { boundedStartRequest, checkStartedRun } from '../deploymentProbe/boundedRun.js';
import type { ProbeContext } from '../deploymentProbe/guardedFetch.js';
import { check, type Check } from '../deploymentProbe/report.js';
import {
  field,
  replayedProblem,
  restCall,
  statusProblem,
  step,
  type Answer,
  type RestPayload,
} from '../deploymentProbe/restCall.js';

/**
 * Production checklist step 10 over REST: start one run with a 60-second budget and one step,
 * inspect it, cancel it, and replay the cancel with the same Idempotency-Key. The run is never
 * continued, so the smoke spends no model call. Whatever happens after the start, a started run
 * is cancelled.
 */
const RUNS = '/api/v1/agent-runs';
const IDS = { start: 'run.start', inspect: 'run.inspect', cancel: 'run.cancel', replay: 'run.cancel_replay' } as const;

/** A GET without a payload, a POST with its Idempotency-Key and body. */
const call = (ctx: ProbeContext, token: string, path: string, mutation?: RestPayload): Promise<Answer> =>
  restCall(ctx, token, mutation === undefined ? 'GET' : 'POST', path, mutation);

export const runLifecycleChecks = async (ctx: ProbeContext, token: string): Promise<Check[]> => {
  const key = `helix-smoke-${randomUUID()}`;
  const start = await step(
    IDS.start,
    () =>
      call(ctx, token, RUNS, {
        key: `${key}-start`,
        body: boundedStartRequest(
          'Helix production smoke: start, inspect and cancel one bounded run; it is never continued.',
        ),
      }),
    (a) => {
      const started = checkStartedRun(a.body);
      const location = `${RUNS}/${encodeURIComponent(String(field(a.body, 'run_id')))}`;
      return [
        ...statusProblem(a, 201),
        ...('problem' in started ? [started.problem] : []),
        ...(a.headers.get('location') === location
          ? []
          : [`Location is ${String(a.headers.get('location'))}, expected ${location}`]),
        ...replayedProblem(a, 'false'),
      ];
    },
    'one run started: version 1, waiting, max_steps 1, expiring 60 s after creation',
  );
  const runId = start.answer?.status === 201 ? field(start.answer.body, 'run_id') : undefined;
  if (typeof runId !== 'string') {
    return [
      start.check,
      ...[IDS.inspect, IDS.cancel, IDS.replay].map((id) => check(id, 'skipped', 'no run was started')),
    ];
  }
  const path = `${RUNS}/${encodeURIComponent(runId)}`;

  const inspect = await step(
    IDS.inspect,
    () => call(ctx, token, path),
    (a) => [
      ...statusProblem(a, 200),
      ...(field(a.body, 'run_id') === runId &&
      field(a.body, 'version') === 1 &&
      field(a.body, 'lifecycle_status') === 'waiting'
        ? []
        : [`expected run ${runId} at version 1, waiting`]),
      ...(a.headers.get('etag') === 'W/"1"' ? [] : [`ETag is ${String(a.headers.get('etag'))}, expected W/"1"`]),
    ],
    `run ${runId} inspected: version 1, waiting`,
  );

  const cancelRequest = () =>
    call(ctx, token, `${path}/cancel`, {
      key: `${key}-cancel`,
      body: { expected_version: 1, reason: 'production smoke' },
    });
  const cancel = await step(
    IDS.cancel,
    cancelRequest,
    (a) => [
      ...statusProblem(a, 200),
      ...(field(a.body, 'lifecycle_status') === 'cancelled' && field(a.body, 'version') === 2
        ? []
        : ['expected lifecycle_status cancelled at version 2']),
      ...replayedProblem(a, 'false'),
    ],
    `run ${runId} cancelled at version 2`,
  );
  if (cancel.answer?.status !== 200)
    return [start.check, inspect.check, cancel.check, check(IDS.replay, 'skipped', 'the cancel did not succeed')];

  const replay = await step(
    IDS.replay,
    cancelRequest,
    (a) => [
      ...statusProblem(a, 200),
      ...replayedProblem(a, 'true'),
      ...(isDeepStrictEqual(a.body, cancel.answer?.body) ? [] : ['the replayed body differs from the first cancel']),
    ],
    'the same Idempotency-Key replayed the stored cancel (Idempotency-Replayed: true, same body)',
  );
  return [start.check, inspect.check, cancel.check, replay.check];
};
