import { HumanAnswerRequestSchema, type HumanAnswerRequest } from '../../api/agentTaskSchemas.js';
import { projectRun, type RunView } from '../../api/runView.js';
import type { Principal } from '../../auth/principal.js';
import { HelixError } from '../../domain/errors.js';
import type { Answer, RunRecord } from '../../domain/run.js';
import { parseInput } from '../validate.js';
import { loadOwnedRun, ownerOf, requireOperation, requireRunId } from './access.js';
import { continueRun } from './continueRun.js';
import type { RunServiceDeps } from './deps.js';
import type { ServiceResult } from '../result.js';

/**
 * A person's answer in the agent-task reference's shape (ATP-26..ATP-30), mapped onto the run's
 * `pending_questions` and answered as one continue, so REST, MCP and the console see the same
 * questions and answers. A dismissed form changes nothing: the run keeps waiting.
 */
export const answerRun = async (
  deps: RunServiceDeps,
  principal: Principal,
  runId: string,
  idempotencyKey: string | undefined,
  body: unknown,
): Promise<ServiceResult<RunView>> => {
  requireOperation(principal, 'run.continue');
  requireRunId(runId);
  const request = parseInput(HumanAnswerRequestSchema, body);
  const run = await loadOwnedRun(deps, runId, ownerOf(deps, principal));
  if (request.formCancelled === true) return { status: 200, body: projectRun(run), replayed: false };
  const answers = request.confirmation === undefined ? completeAnswers(run, request) : [confirmationOf(request)];
  return continueRun(deps, principal, runId, idempotencyKey, { expected_version: request.expected_version, answers });
};

/** ATP-26, ATP-27: the complete array, one entry per pending question; skips become `{ is_skipped: true }`. */
const completeAnswers = (run: RunRecord, request: HumanAnswerRequest): Answer[] => {
  const given = request.answers ?? [];
  const open = run.pendingQuestions.filter((q) => q.kind !== 'confirmation').map((q) => q.question_id);
  const answered = new Set(given.map((a) => a.questionId));
  const missing = open.filter((id) => !answered.has(id));
  if (missing.length > 0)
    throw new HelixError('invalid_answer', {
      issues: missing.slice(0, 20).map(() => ({ path: 'answers', message: 'the complete answer array is required' })),
    });
  return given.map((a) => ({ question_id: a.questionId, value: a.isSkipped ? { is_skipped: true } : a.answer }));
};

/** ATP-28: `{ isConfirmed, feedback }` as Helix's `{ is_confirmed, feedback }` answer value. */
const confirmationOf = (request: HumanAnswerRequest): Answer => {
  const c = request.confirmation;
  if (c === undefined) throw new HelixError('invalid_request');
  return {
    question_id: c.questionId,
    value: { is_confirmed: c.isConfirmed, ...(c.feedback === undefined ? {} : { feedback: c.feedback }) },
  };
};
