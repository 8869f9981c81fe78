import type { Operation } from './history.js';

/**
 * A sequential specification of one kind of object. `specFor` sees one object's whole history
 * first, so a model can size its state to it (the run register tracks an Idempotency-Key's
 * receipt only when the key is used more than once).
 */
export interface Model<S, I, O> {
  readonly name: string;
  specFor(history: readonly Operation<I, O>[]): Spec<S, I, O>;
  /** One line naming the operation and its answer, for a violation's explanation. */
  describe(op: Operation<I, O>): string;
}

export interface Spec<S, I, O> {
  readonly initial: S;
  /**
   * How many instants the operation takes effect at, in order: 1 for most; 2 for a continue (its
   * claim, then its finalize), which lets another operation (a cancel) fall between them.
   */
  phases(op: Operation<I, O>): number;
  /**
   * Every state the object can be in after `phase` of `op` from `state`, given the answer the client
   * recorded; empty when that answer is impossible from `state`. Several states stand for the
   * model's nondeterminism (an operation without an answer happened or did not).
   */
  step(state: S, op: Operation<I, O>, phase: number): readonly S[];
  /** Equal for equal states: the search's memo and state sets are keyed by it. */
  key(state: S): string;
}
