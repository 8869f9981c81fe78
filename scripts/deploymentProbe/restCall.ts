import { helixErrorOf } from './boundedRun.js';
import { describeFailure, readBoundedJson, type ProbeContext } from './guardedFetch.js';
import { check, type Check } from './report.js';

/** One REST answer as the probes judge it: status, headers and the bounded JSON body. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

export const REST_METHODS = ['GET', 'POST', 'DELETE'] as const;
export type RestMethod = (typeof REST_METHODS)[number];

/** A request body, and the Idempotency-Key it travels under when the operation takes one. */
export interface RestPayload {
  readonly key?: string;
  readonly body?: unknown;
}

/**
 * One bearer-authenticated request to the probe's target. The bearer goes in the Authorization
 * header only (never a query string), and only ever to `ctx.target` (guardedFetch pins the origin).
 */
export const restCall = async (
  ctx: ProbeContext,
  token: string,
  method: RestMethod,
  path: string,
  payload: RestPayload = {},
): Promise<Answer> => {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
  if (payload.key !== undefined) headers['idempotency-key'] = payload.key;
  if (payload.body !== undefined) headers['content-type'] = 'application/json';
  const response = await ctx.fetch(`${ctx.target}${path}`, {
    method,
    headers,
    ...(payload.body === undefined ? {} : { body: JSON.stringify(payload.body) }),
  });
  return { status: response.status, headers: response.headers, body: await readBoundedJson(response) };
};

/** A request as a check: a transport failure fails it, and so does any problem `judge` finds. */
export const step = async (
  id: string,
  request: () => Promise<Answer>,
  judge: (answer: Answer) => string[],
  passed: string | ((answer: Answer) => string),
): Promise<{ check: Check; answer?: Answer }> => {
  let answer: Answer;
  try {
    answer = await request();
  } catch (err) {
    return { check: check(id, 'failed', describeFailure(err)) };
  }
  const problems = judge(answer);
  return {
    check:
      problems.length === 0
        ? check(id, 'passed', typeof passed === 'string' ? passed : passed(answer))
        : check(id, 'failed', problems.join('; ')),
    answer,
  };
};

/** The problem of an answer whose status is not an expected one, naming Helix's error code. */
export const statusProblem = (answer: Answer, expected: number | readonly number[]): string[] => {
  const allowed = typeof expected === 'number' ? [expected] : expected;
  if (allowed.includes(answer.status)) return [];
  const error = helixErrorOf(answer.body);
  return [`HTTP ${answer.status}${error === undefined ? '' : ` ${error}`}, expected ${allowed.join(' or ')}`];
};

/** The status problem, or when the status is right, what `body` finds: an error body is not judged as a receipt. */
export const statusThen = (answer: Answer, expected: number | readonly number[], body: () => string[]): string[] => {
  const problems = statusProblem(answer, expected);
  return problems.length > 0 ? problems : body();
};

export const field = (body: unknown, name: string): unknown =>
  body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;

export const replayedProblem = (answer: Answer, expected: 'true' | 'false'): string[] =>
  answer.headers.get('idempotency-replayed') === expected
    ? []
    : [`Idempotency-Replayed is ${String(answer.headers.get('idempotency-replayed'))}, expected ${expected}`];
