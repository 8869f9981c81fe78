import { describeFailure, RequestRefused } from '../deploymentProbe/guardedFetch.js';
import type { Check } from '../deploymentProbe/report.js';
import { step, type Answer } from '../deploymentProbe/restCall.js';
import { BudgetExhausted } from './budget.js';

/**
 * A transport failure after the request left (a reset socket, a timed-out answer) may hide a
 * committed mutation. A refusal by the harness itself or the end of the budget does not.
 */
export const mayHaveLostResponse = (err: unknown): boolean =>
  !(err instanceof RequestRefused) && !(err instanceof BudgetExhausted);

/**
 * HAR-12: a mutation whose response was lost is replayed once, exactly (the same Idempotency-Key
 * and body, or the naturally idempotent exact bind), to learn what the server did. The check says
 * when its answer came from the replay.
 */
export const replayingStep = async (
  id: string,
  request: () => Promise<Answer>,
  judge: (answer: Answer, replayed: boolean) => string[],
  passed: (answer: Answer) => string,
): Promise<{ check: Check; answer?: Answer }> => {
  let lost: string | undefined;
  const once = async (): Promise<Answer> => {
    try {
      return await request();
    } catch (err) {
      if (!mayHaveLostResponse(err)) throw err;
      lost = describeFailure(err);
      return request();
    }
  };
  const result = await step(id, once, (answer) => judge(answer, lost !== undefined), passed);
  if (lost === undefined) return result;
  const note = `response lost (${lost}); replayed the exact request`;
  return { ...result, check: { ...result.check, detail: `${note}: ${result.check.detail}` } };
};
