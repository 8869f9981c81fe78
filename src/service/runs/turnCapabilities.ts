import { isHelixError } from '../../domain/errors.js';
import { isTurnFailingCapabilityError, type TurnFailingCapabilityError } from '../../domain/turnFailures.js';
import type { TurnArtifact } from '../../domain/turn.js';
import type { TurnCapabilities } from '../../solver/executor.js';
import type { CapabilityRegistry } from '../../sources/registry.js';
import type { Store } from '../../store/port.js';

export interface TurnScope {
  readonly runId: string;
  readonly turn: number;
  readonly admitted: ReadonlySet<string>;
  readonly signal: AbortSignal;
  readonly now: () => number;
}

export interface RecordingCapabilities extends TurnCapabilities {
  /**
   * The first typed refusal a capability answered this turn (the bound room rechecks, BRE-06):
   * the service fails the turn with it, whatever the executor made of the error.
   */
  readonly typedFailure: () => TurnFailingCapabilityError | undefined;
}

/**
 * The capability handle a turn gets: the admitted menu, and an `invoke` that passes the registry's
 * gate and records what it retrieved before handing it to the executor, so a crash or cancel
 * mid-turn still leaves the audit trail of what was read.
 */
export const turnCapabilities = (
  registry: CapabilityRegistry,
  store: Store,
  scope: TurnScope,
): RecordingCapabilities => {
  let failure: TurnFailingCapabilityError | undefined;
  return {
    menu: registry.menu(scope.admitted),
    typedFailure: () => failure,
    async invoke(id, input) {
      try {
        const result = await registry.invoke(id, input, scope.admitted, {
          runId: scope.runId,
          turn: scope.turn,
          signal: scope.signal,
          now: scope.now,
        });
        await record(store, scope, result.artifacts);
        return result;
      } catch (err) {
        if (isHelixError(err) && isTurnFailingCapabilityError(err.code)) failure ??= err.code;
        throw err;
      }
    },
  };
};

const record = async (store: Store, scope: TurnScope, artifacts: readonly TurnArtifact[]): Promise<void> => {
  if (artifacts.length === 0) return;
  await store.transaction((uow) => uow.artifacts.recordRetrieved(scope.runId, scope.turn, artifacts, scope.now()));
};
