import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { boundedStartRequest, checkStartedRun, helixErrorOf } from '../deploymentProbe/boundedRun.js';
import { describeFailure, readBoundedJson, type ProbeContext } from '../deploymentProbe/guardedFetch.js';
import { check, type Check } from '../deploymentProbe/report.js';

/**
 * Production checklist step 10 over REST: start one run with a 60-second budget and one step,
 * inspect it, cancel it, and replay the cancel with the same Idempotency-Key. The run is never
 * continued, so the smoke spends no model call. Whatever happens after the start, a started run
 * is cancelled.
 */
const RUNS = '/api/v1/agent-runs';
const IDS = { start: 'run.start', inspect: 'run.inspect', cancel: 'run.cancel', replay: 'run.cancel_replay' } as const;

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

type Mutation = { readonly key: string; readonly body: unknown };

const call = async (ctx: ProbeContext, token: string, path: string, mutation?: Mutation): Promise<Answer> => {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
  if (mutation !== undefined)
    Object.assign(headers, { 'content-type': 'application/json', 'idempotency-key': mutation.key });
  const response = await ctx.fetch(`${ctx.target}${path}`, {
    method: mutation === undefined ? 'GET' : 'POST',
    headers,
    ...(mutation === undefined ? {} : { body: JSON.stringify(mutation.body) }),
  });
  return { status: response.status, headers: response.headers, body: await readBoundedJson(response) };
};

/** A request as a check: a transport failure fails it, and so does any problem `judge` finds. */
const step = async (
  id: string,
  request: () => Promise<Answer>,
  judge: (answer: Answer) => string[],
  passed: string,
): Promise<{ check: Check; answer?: Answer }> => {
  let answer: Answer;
  try {
    answer = await request();
  } catch (err) {
    return { check: check(id, 'failed', describeFailure(err)) };
  }
  const problems = judge(answer);
  return {
    check: problems.length === 0 ? check(id, 'passed', passed) : check(id, 'failed', problems.join('; ')),
    answer,
  };
};

/** The first problem of an answer whose status is not the expected one, naming Helix's error code. */
const statusProblem = (answer: Answer, expected: number): string[] =>
  answer.status === expected
    ? []
    : [
        `HTTP ${answer.status}${helixErrorOf(answer.body) === undefined ? '' : ` ${helixErrorOf(answer.body)}`}, expected ${expected}`,
      ];

const field = (body: unknown, name: string): unknown =>
  body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;

const replayedProblem = (answer: Answer, expected: 'true' | 'false'): string[] =>
  answer.headers.get('idempotency-replayed') === expected
    ? []
    : [`Idempotency-Replayed is ${String(answer.headers.get('idempotency-replayed'))}, expected ${expected}`];

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
