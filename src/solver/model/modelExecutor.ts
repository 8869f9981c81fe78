import { emptyOutcome, type TurnOutcome } from '../../domain/turn.js';
import type { TurnFailureDetail } from '../../domain/turnFailures.js';
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
 * What the provider stated about a model error, for the turn's failure detail; undefined when it
 * stated nothing (a network fault, a timeout, Helix's own output limit). The model layer already
 * sanitized each field (src/model/responses/failures.ts, src/model/maskSecrets.ts).
 */
export const modelFailureDetail = (error: unknown, provider: string | null): TurnFailureDetail | undefined => {
  if (!(error instanceof ModelError)) return undefined;
  const { providerType, providerCode, providerMessage, httpStatus } = error.details;
  if (providerType === undefined && providerCode === undefined && providerMessage === undefined) return undefined;
  return {
    provider,
    type: providerType ?? null,
    code: providerCode ?? null,
    message: providerMessage ?? null,
    http_status: httpStatus ?? null,
  };
};

/** A failed outcome for a model error: its code, and what the provider stated when it stated anything. */
const modelFailure = (error: unknown, provider: string | null, overrides: Partial<TurnOutcome> = {}): TurnOutcome => {
  const detail = modelFailureDetail(error, provider);
  return emptyOutcome({
    status: 'failed',
    failureCode: modelFailureCode(error),
    ...(detail === undefined ? {} : { failureDetail: detail }),
    ...overrides,
  });
};

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
      return modelFailure(err, null);
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
      // The provider's payload stays out of the outcome: the error's kind, and only what it stated
      // (type, code, sanitized message), which the contract carries in the turn's failure.
      if (err instanceof LoopFailure)
        return modelFailure(err.modelError, selection.client.provider, { usage: err.usage });
      throw err;
    }
  }
}
