/** Drives one run per question through Helix's REST API with the client loop `helix ask` uses. */
import { askHelix } from '../../src/client/askLoop.js';
import type { HelixRestClient } from '../../src/client/restClient.js';
import type { Question } from './questionSet.js';
import type { AuthorityTrace, RunOutcome } from './score.js';

export interface AskedQuestion {
  readonly outcome: RunOutcome;
  /** Wall time of each continue (one governed turn) as the client saw it, in milliseconds. */
  readonly turnMillis: readonly number[];
}

/** The answer without its Sources list: a title there must not pass for the answer. */
const answerText = (text: string | null): string | null =>
  text === null ? null : (text.split('\n\nSources:')[0] ?? text);

export const askQuestion = async (client: HelixRestClient, question: Question): Promise<AskedQuestion> => {
  const turnMillis: number[] = [];
  let last = 0;
  const { run } = await askHelix(
    client,
    { objective: question.question, scopes: ['research_library'] },
    {
      onRun: (view) => {
        const now = performance.now();
        if (view.budget.steps_used > 0) turnMillis.push(now - last);
        last = now;
      },
    },
  );
  const authority = await lastAuthority(client, run.run_id, run.answer_contract);
  const authorized = run.completion_status === 'completed' && run.terminal_authority_status === 'authorized';
  return {
    outcome: {
      authorized,
      answer: authorized ? answerText(run.latest_result?.text ?? null) : null,
      contradictions: run.contradictions.length,
      recommendedNextAction: run.recommended_next_action,
      stepsUsed: run.budget.steps_used,
      authority,
    },
    turnMillis,
  };
};

/** The run's last `run.terminal_authority_evaluated` event, reduced to its reason and contract coverage. */
const lastAuthority = async (
  client: HelixRestClient,
  runId: string,
  contract: unknown,
): Promise<AuthorityTrace | null> => {
  let trace: AuthorityTrace | null = null;
  let after = 0;
  for (;;) {
    const page = await client.events(runId, { after_seq: after, limit: 200 });
    for (const event of page.events) {
      if (event.kind !== 'run.terminal_authority_evaluated') continue;
      const judgment = event.data.answer_contract as { parts?: { coverage: number }[] } | undefined;
      const coverages = judgment?.parts?.map((p) => p.coverage) ?? [];
      trace = {
        reason: typeof event.data.reason === 'string' ? event.data.reason : null,
        coverage: coverages.length === 0 ? null : Math.min(...coverages),
        detail: { contract, parts: judgment?.parts ?? null },
      };
    }
    if (!page.has_more) return trace;
    after = page.next_after_seq;
  }
};
