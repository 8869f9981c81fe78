import type { Answer, LatestResult } from '../domain/run.js';
import type { TurnOutcome } from '../domain/turn.js';

/** Everything one governed turn may see. Nothing here is a credential or another owner's data. */
export interface TurnInput {
  readonly runId: string;
  readonly turn: number;
  readonly objective: string;
  readonly constraints: readonly string[];
  readonly instruction: string | null;
  /** Every answer given so far, including this continuation's. */
  readonly answers: readonly Answer[];
  readonly databaseScope: readonly string[];
  /** Exact capability ids the executor may call; anything else must be refused. */
  readonly admittedCapabilities: ReadonlySet<string>;
  readonly previousResult: LatestResult | null;
  /** Aborted on cancellation or when the deadline passes; executors check it at every boundary. */
  readonly signal: AbortSignal;
  /** Absolute epoch-ms deadline: the earlier of the turn timeout and the run's expiry. */
  readonly deadline: number;
}

/** The solver port: one bounded turn in, one outcome out. */
export interface TurnExecutor {
  /** Reported as the run's `runtime_provider`. */
  readonly provider: string;
  executeTurn(input: TurnInput): Promise<TurnOutcome>;
}
