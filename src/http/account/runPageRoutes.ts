import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HelixError } from '../../domain/errors.js';
import { requireSessionAccount } from '../../service/accounts/sessionAccount.js';
import { openAccountEventStream } from '../../service/runs/accountEventStream.js';
import { answerPendingQuestion } from '../../service/runs/answerPendingQuestion.js';
import type { RunServiceDeps } from '../../service/runs/deps.js';
import { listAccountRuns } from '../../service/runs/listAccountRuns.js';
import { viewAccountRun } from '../../service/runs/viewAccountRun.js';
import { eventStreamSender } from '../eventStreamResponse.js';
import { asAccount, type ConsoleContext, field, html } from './consoleRequest.js';
import { sessionCookieOf } from './cookies.js';
import { runPage } from './runPage.js';
import { RUN_PAGE_SCRIPT } from './runPageScript.js';
import { RUNS_PAGE, runErrorPage, runPagePath, runsPage, type RunSearch } from './runPages.js';
import { requireSameOrigin } from './sameOrigin.js';

/**
 * The form's answer in Helix's answer shape (src/domain/answers.ts): Confirm/Decline make
 * `{ is_confirmed, feedback? }` (ATP-28), Skip makes `{ is_skipped: true }` (ATP-27), and
 * otherwise the typed value is the answer. The run's rules check it like any continue's.
 */
const answerValueOf = (request: FastifyRequest): unknown => {
  const decision = field(request, 'decision');
  if (decision === 'skip') return { is_skipped: true };
  if (decision !== 'confirm' && decision !== 'decline') return field(request, 'value');
  const feedback = field(request, 'feedback').trim();
  return { is_confirmed: decision === 'confirm', ...(feedback === '' ? {} : { feedback }) };
};

type Params = { run_id: string };
type Query = Readonly<Record<string, unknown>>;

/** An answer is one short form: the account pages' form limit, with room for a 4,000-character answer. */
const ANSWER_BODY_LIMIT = 12 * 4000 + 1024;

/** A search form sends every field, filled or not: an empty field is no filter. */
const filledFields = (query: Query): Query =>
  Object.fromEntries(Object.entries(query).filter(([, value]) => value !== ''));

const searchOf = (query: Query): RunSearch => {
  const pick = (name: string) => (typeof query[name] === 'string' ? { [name]: query[name] as string } : {});
  return { ...pick('q'), ...pick('status'), ...pick('from'), ...pick('to') };
};

const expectedVersionOf = (request: FastifyRequest): number => {
  const version = Number(field(request, 'expected_version'));
  if (!Number.isSafeInteger(version) || version < 1)
    throw new HelixError('invalid_request', {
      issues: [{ path: 'expected_version', message: 'must be a run version' }],
    });
  return version;
};

/**
 * The console's run pages (issue 17): the list, one run, answering a pending question (a form post:
 * same origin and the session cookie, src/http/account/consoleRequest.ts), and the run's live event
 * stream for the page's script. The use cases live in src/service/runs/ (account*.ts and the rest).
 */
export const registerRunPages = (app: FastifyInstance, context: ConsoleContext, runs: RunServiceDeps): void => {
  const send = eventStreamSender(app);
  app.get<{ Querystring: Query }>(
    RUNS_PAGE,
    asAccount<{ Querystring: Query }>(
      context,
      async (accountId, request, reply) => {
        const query = filledFields(request.query);
        return html(reply, 200, runsPage(await listAccountRuns(runs, accountId, query), searchOf(query)));
      },
      runErrorPage,
    ),
  );
  app.get('/account/runs.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send(RUN_PAGE_SCRIPT),
  );
  app.get<{ Params: Params }>(
    `${RUNS_PAGE}/:run_id`,
    asAccount<{ Params: Params }>(
      context,
      async (accountId, request, reply) =>
        html(
          reply,
          200,
          runPage(await viewAccountRun(runs, accountId, request.params.run_id), `console-${randomUUID()}`),
        ),
      runErrorPage,
    ),
  );
  app.post<{ Params: Params }>(
    `${RUNS_PAGE}/:run_id/answers`,
    { bodyLimit: ANSWER_BODY_LIMIT },
    asAccount<{ Params: Params }>(
      context,
      async (accountId, request, reply) => {
        await answerPendingQuestion(runs, accountId, request.params.run_id, {
          questionId: field(request, 'question_id'),
          value: answerValueOf(request),
          expectedVersion: expectedVersionOf(request),
          idempotencyKey: field(request, 'idempotency_key'),
        });
        return reply.redirect(runPagePath(request.params.run_id), 303);
      },
      runErrorPage,
    ),
  );
  // The page's EventSource: a same-origin GET with the session cookie; a refusal is a JSON error.
  app.get<{ Params: Params }>(`${RUNS_PAGE}/:run_id/events/stream`, async (request, reply) => {
    requireSameOrigin(request, context.identity);
    const accountId = await requireSessionAccount(context.accounts, sessionCookieOf(request));
    const lastEventId = request.headers['last-event-id'];
    const stream = await openAccountEventStream(
      runs,
      accountId,
      request.params.run_id,
      request.query,
      typeof lastEventId === 'string' ? lastEventId : undefined,
    );
    await send(request, reply, stream);
  });
};
