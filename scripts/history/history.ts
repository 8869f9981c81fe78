/**
 * A recorded history: what concurrent clients asked of the service and what each learned, with
 * the wall-clock interval in which it happened. The checker (search.ts) decides whether some
 * order of the operations, each placed at one instant inside its interval, explains every answer
 * under a sequential model (model.ts). That is linearizability (Herlihy and Wing), checked per
 * object: operations on different objects never constrain each other.
 */
export interface Operation<I, O> {
  /** Unique within the history, in invocation order. */
  readonly id: number;
  /** The object acted on (a run, a chat, an agent call): the checker searches each one alone. */
  readonly object: string;
  /** Which client sent it; for explanations only. */
  readonly client: number;
  readonly input: I;
  /**
   * The answer, or undefined when the client cannot know whether the operation happened: a
   * timeout, a reset connection, a 5xx. The model then lets it take effect or not.
   */
  readonly output: O | undefined;
  /** Milliseconds (monotonic clock) when the request was sent. */
  readonly invokedAt: number;
  /**
   * When the answer (or the 5xx) arrived. Infinity when nothing arrived: the effect, if any, may
   * land at any later time, for instance when a restarted server recovers the work.
   */
  readonly returnedAt: number;
}

/** Groups a history by object, each group in invocation order. */
export const byObject = <I, O>(history: readonly Operation<I, O>[]): Map<string, Operation<I, O>[]> => {
  const groups = new Map<string, Operation<I, O>[]>();
  for (const op of [...history].sort((a, b) => a.invokedAt - b.invokedAt)) {
    const group = groups.get(op.object);
    if (group === undefined) groups.set(op.object, [op]);
    else group.push(op);
  }
  return groups;
};
