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

/**
 * The capability handle a turn gets: the admitted menu, and an `invoke` that passes the registry's
 * gate and records what it retrieved before handing it to the executor, so a crash or cancel
 * mid-turn still leaves the audit trail of what was read.
 */
export const turnCapabilities = (registry: CapabilityRegistry, store: Store, scope: TurnScope): TurnCapabilities => ({
  menu: registry.menu(scope.admitted),
  async invoke(id, input) {
    const result = await registry.invoke(id, input, scope.admitted, {
      runId: scope.runId,
      turn: scope.turn,
      signal: scope.signal,
      now: scope.now,
    });
    await record(store, scope, result.artifacts);
    return result;
  },
});

const record = async (store: Store, scope: TurnScope, artifacts: readonly TurnArtifact[]): Promise<void> => {
  if (artifacts.length === 0) return;
  await store.transaction((uow) => uow.artifacts.recordRetrieved(scope.runId, scope.turn, artifacts, scope.now()));
};
