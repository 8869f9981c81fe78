import { emptyOutcome, type TurnOutcome } from '../../domain/turn.js';
import { ModelError, type ModelResolver, type ModelSelection } from '../../model/port.js';
import type { TurnExecutor, TurnInput } from '../executor.js';
import { outcomeFromResult } from './resultTool.js';
import { DeadlineReached, DEFAULT_OUTPUT_LIMITS, LoopFailure, runToolLoop, type LoopLimits } from './toolLoop.js';

export interface ModelExecutorOptions {
  /** Picks the run owner's model; undefined means none is configured for that owner. */
  readonly resolver: ModelResolver;
  /** Runs the turn when the owner has no model (e.g. the extractive executor); otherwise the turn fails. */
  readonly fallback?: TurnExecutor;
  /** Tool calls one turn may make, the result tool included. */
  readonly maxToolCalls: number;
  /** Bytes per call and characters per turn the model may produce (defaults: DEFAULT_OUTPUT_LIMITS). */
  readonly outputLimits?: Omit<LoopLimits, 'maxToolCalls'>;
  readonly now?: () => number;
}

/** Requirement left when the model never submitted a valid result, even when asked to. */
export const MODEL_DID_NOT_SUBMIT = 'model_did_not_submit';

/** `model_<kind>`: the failure code a turn reports for a model error, e.g. `model_rate_limited`. */
export const modelFailureCode = (error: unknown): string =>
  error instanceof ModelError ? `model_${error.kind}` : 'model_error';

/**
 * The model-driven executor: one bounded tool loop per turn over exactly the admitted
 * capabilities, ended by the model calling `submit_result`. It proposes; it never decides. Its
 * outcome goes through the same re-entry audit, terminal authority and completion checks as the
 * extractive executor's, so a ref the model cites without having retrieved it is refused there.
 */
export class ModelExecutor implements TurnExecutor {
  readonly provider = 'helix.model';
  private readonly now: () => number;

  constructor(private readonly options: ModelExecutorOptions) {
    if (!Number.isInteger(options.maxToolCalls) || options.maxToolCalls < 1)
      throw new TypeError('maxToolCalls must be a positive integer');
    this.now = options.now ?? Date.now;
  }

  async executeTurn(input: TurnInput): Promise<TurnOutcome> {
    let selection: ModelSelection | undefined;
    try {
      selection = await this.options.resolver.forOwner(input.ownerHash, input.signal, {
        ownProviders: input.ownerModelProviders,
      });
    } catch (err) {
      input.signal.throwIfAborted();
      return emptyOutcome({ status: 'failed', failureCode: modelFailureCode(err) });
    }
    if (selection === undefined) {
      if (this.options.fallback !== undefined) return this.options.fallback.executeTurn(input);
      return emptyOutcome({ status: 'failed', failureCode: 'model_unconfigured' });
    }

    try {
      const limits = {
        ...DEFAULT_OUTPUT_LIMITS,
        ...this.options.outputLimits,
        maxToolCalls: this.options.maxToolCalls,
      };
      const loop = await runToolLoop(input, selection, limits, this.now);
      if (loop.submitted === null) {
        return emptyOutcome({
          artifacts: loop.artifacts,
          unresolvedRequirements: [MODEL_DID_NOT_SUBMIT],
          usage: loop.usage,
        });
      }
      return { ...outcomeFromResult(loop.submitted, loop.artifacts), usage: loop.usage };
    } catch (err) {
      if (err instanceof DeadlineReached) return emptyOutcome({ status: 'failed', failureCode: 'turn_timeout' });
      // The provider's message and payload stay out of the outcome: only the error's kind is recorded.
      if (err instanceof LoopFailure)
        return emptyOutcome({ status: 'failed', failureCode: modelFailureCode(err.modelError), usage: err.usage });
      throw err;
    }
  }
}
