import type { AnswerValue, ContinueRunBody, PendingQuestion, RunEvidence, RunSnapshot } from './contract.js';
import type { HelixRestClient } from './restClient.js';

export interface AskRequest {
  readonly objective: string;
  readonly scopes: readonly string[];
  readonly maxSteps?: number;
  readonly minEvidence?: number;
}

export interface AskHooks {
  /** Called after start and after every turn. */
  onRun?(run: RunSnapshot): void;
  /** Asks the user one question; undefined means "cannot ask" (no terminal) and stops the loop. */
  askUser?(question: PendingQuestion): Promise<AnswerValue | undefined>;
}

export interface AskOutcome {
  readonly run: RunSnapshot;
  readonly evidence: RunEvidence;
  /** Why the loop stopped; `needs_broader_scope`: the admitted sources cannot answer the objective. */
  readonly stoppedBecause: 'terminal' | 'no_progress' | 'needs_input' | 'needs_broader_scope';
}

export const FIRST_INSTRUCTION = 'Answer the objective from the admitted evidence, citing sources.';
const RETRY_INSTRUCTION = 'Search again more broadly for evidence on the objective.';

/**
 * A turn made progress when something the completion judge looks at changed, or it read something
 * new: with terminal grounding required, passages a turn read without an authorized answer are
 * observations, not evidence, and the next turn may still answer from them.
 */
const progressKey = (run: RunSnapshot, evidence: RunEvidence): string =>
  JSON.stringify([
    run.completion_status,
    run.evidence.count,
    evidence.observation_refs.length,
    run.unresolved_requirements,
    run.contradictions.map((c) => c.contradiction_id),
    run.terminal_authority_status,
  ]);

/**
 * The client loop the contract describes: start, then continue one governed turn at a time while
 * progress is possible — answering questions when a person can, stopping on a terminal status, on
 * a question nobody can answer, or when a turn changed nothing.
 */
export const askHelix = async (
  client: HelixRestClient,
  request: AskRequest,
  hooks: AskHooks = {},
): Promise<AskOutcome> => {
  let run = await client.start({
    objective: request.objective,
    database_scope: [...request.scopes],
    ...(request.maxSteps === undefined && request.minEvidence === undefined
      ? {}
      : {
          ...(request.maxSteps === undefined ? {} : { budget: { max_steps: request.maxSteps } }),
          ...(request.minEvidence === undefined
            ? {}
            : { completion_contract: { min_evidence_refs: request.minEvidence } }),
        }),
  });
  hooks.onRun?.(run);
  let previous: string | undefined;
  let instruction = FIRST_INSTRUCTION;
  let stoppedBecause: AskOutcome['stoppedBecause'] = 'terminal';
  while (run.recommended_next_action !== 'stop') {
    if (run.recommended_next_action === 'broaden_scope') {
      stoppedBecause = 'needs_broader_scope';
      break;
    }
    let answers: NonNullable<ContinueRunBody['answers']> = [];
    if (run.recommended_next_action === 'answer_pending_questions') {
      for (const question of run.pending_questions) {
        const value = hooks.askUser === undefined ? undefined : await hooks.askUser(question);
        if (value === undefined)
          return { run, evidence: await client.evidence(run.run_id), stoppedBecause: 'needs_input' };
        answers.push({ question_id: question.question_id, value });
      }
    }
    const progress = progressKey(run, await client.evidence(run.run_id));
    if (answers.length === 0 && previous === progress) {
      stoppedBecause = 'no_progress';
      break;
    }
    previous = progress;
    run = await client.continue(run.run_id, {
      expected_version: run.version,
      ...(answers.length > 0 ? { answers } : { instruction }),
    });
    answers = [];
    instruction = RETRY_INSTRUCTION;
    hooks.onRun?.(run);
  }
  return { run, evidence: await client.evidence(run.run_id), stoppedBecause };
};
