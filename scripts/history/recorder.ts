import { performance } from 'node:perf_hooks';
import type { Operation } from './history.js';

/**
 * What one request came to, as the client can tell: an answer the model must explain; `unknown`
 * when it may or may not have taken effect (`answered: true` for a 5xx, whose effect, if any, came
 * before the answer; false for a timeout or reset, whose effect may land later); `not_sent` when
 * it never reached a server (connection refused), which constrains nothing.
 */
export type Outcome<O> =
  | { readonly kind: 'answer'; readonly output: O }
  | { readonly kind: 'unknown'; readonly answered: boolean; readonly reason: string }
  | { readonly kind: 'not_sent' };

/** Records each operation's call and return instants on a monotonic clock, and its outcome. */
export class Recorder<I, O> {
  private readonly operations: Operation<I, O>[] = [];
  private nextId = 0;

  /**
   * `object` may be a function of the answer, for an operation that names its object only in its
   * answer (a start names the run it created); one it names none for is not recorded.
   */
  async record(
    object: string | ((output: O) => string | undefined),
    client: number,
    input: I,
    send: () => Promise<Outcome<O>>,
  ): Promise<Outcome<O>> {
    const id = this.nextId++;
    const invokedAt = performance.now();
    const outcome = await send();
    const answeredAt = performance.now();
    if (outcome.kind === 'not_sent') return outcome;
    const named = typeof object === 'string' ? object : outcome.kind === 'answer' ? object(outcome.output) : undefined;
    if (named === undefined) return outcome;
    const answered = outcome.kind === 'answer' || outcome.answered;
    this.operations.push({
      id,
      object: named,
      client,
      input,
      output: outcome.kind === 'answer' ? outcome.output : undefined,
      invokedAt,
      returnedAt: answered ? answeredAt : Number.POSITIVE_INFINITY,
    });
    return outcome;
  }

  history(): Operation<I, O>[] {
    return [...this.operations].sort((a, b) => a.id - b.id);
  }
}
