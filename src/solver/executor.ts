import type { AnswerContract } from '../domain/answerContract/contract.js';
import type { Answer, LatestResult } from '../domain/run.js';
import type { UsageMeter } from '../domain/turn.js';
import type { TurnOutcome } from '../domain/turn.js';
import type { Capability, CapabilityResult } from '../sources/capability.js';

/**
 * The capabilities one turn may use, already narrowed to the admitted set. `invoke` is the only way
 * to call them: it enforces admission at call time, honours the turn's signal, and records every
 * artifact durably as soon as it is retrieved.
 */
export interface TurnCapabilities {
  readonly menu: readonly Capability[];
  invoke(id: string, input: unknown): Promise<CapabilityResult>;
}

/** Everything one governed turn may see. Nothing here is a credential or another owner's data. */
export interface TurnInput {
  readonly runId: string;
  /** The run owner's opaque hash: selects the owner's model provider, never shown to a model. */
  readonly ownerHash: string;
  readonly turn: number;
  readonly objective: string;
  /** What an answer to the objective must be; terminal authority judges every candidate against it. */
  readonly answerContract: AnswerContract;
  readonly constraints: readonly string[];
  readonly instruction: string | null;
  /** Every answer given so far, including this continuation's. */
  readonly answers: readonly Answer[];
  readonly databaseScope: readonly string[];
  /** Whether the owner's account policy lets this turn use the owner's own model providers. */
  readonly ownerModelProviders: boolean;
  /** Exact capability ids admitted for this turn. */
  readonly admittedCapabilities: ReadonlySet<string>;
  readonly capabilities: TurnCapabilities;
  readonly previousResult: LatestResult | null;
  /** Aborted on cancellation or when the deadline passes; executors check it at every boundary. */
  readonly signal: AbortSignal;
  /** Absolute epoch-ms deadline: the earlier of the turn timeout and the run's expiry. */
  readonly deadline: number;
  /** Where a model-driven executor adds each call's token usage as it completes; recorded however the turn ends. */
  readonly usage: UsageMeter;
}

/** The solver port: one bounded turn in, one outcome out. */
export interface TurnExecutor {
  /** Reported as the run's `runtime_provider`. */
  readonly provider: string;
  executeTurn(input: TurnInput): Promise<TurnOutcome>;
}
