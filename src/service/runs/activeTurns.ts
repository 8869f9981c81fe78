/**
 * Process-local registry of turns this process is executing (or about to claim), so a cancel
 * accepted here can abort the turn's AbortController and liveness can tell a live turn of this
 * process from one a crashed predecessor left behind. Cancellation accepted by another process is
 * caught by finalize's compare-and-set instead.
 */
export class ActiveTurns {
  private readonly byRun = new Map<string, Map<string, AbortController>>();

  begin(runId: string, turnId: string): AbortController {
    const controller = new AbortController();
    const turns = this.byRun.get(runId) ?? new Map<string, AbortController>();
    turns.set(turnId, controller);
    this.byRun.set(runId, turns);
    return controller;
  }

  end(runId: string, turnId: string): void {
    const turns = this.byRun.get(runId);
    turns?.delete(turnId);
    if (turns?.size === 0) this.byRun.delete(runId);
  }

  has(runId: string, turnId: string): boolean {
    return this.byRun.get(runId)?.has(turnId) ?? false;
  }

  /** Aborts every turn of the run in this process; returns how many were signalled. */
  abort(runId: string, reason: string): number {
    const turns = this.byRun.get(runId);
    if (turns === undefined) return 0;
    for (const controller of turns.values()) controller.abort(new Error(reason));
    return turns.size;
  }

  get size(): number {
    let total = 0;
    for (const turns of this.byRun.values()) total += turns.size;
    return total;
  }
}
