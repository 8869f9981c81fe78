import { EventEmitter } from 'node:events';

export const RUN_SIGNALS = ['events', 'cancel'] as const;
export type RunSignal = (typeof RUN_SIGNALS)[number];

/**
 * Wakes whoever waits on a run: new events were committed (long polls, event streams), or the
 * run was cancelled (the process executing its turn aborts it). Signals are hints sent after
 * commit; readers always re-read the store, so a lost signal costs latency, never correctness.
 */
export interface RunNotifier {
  publish(runId: string, signal: RunSignal): void;
  subscribe(runId: string, listener: (signal: RunSignal) => void): () => void;
  close(): Promise<void>;
}

/** Signals within this process only (the embedded SQLite deployment). */
export class LocalRunNotifier implements RunNotifier {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  publish(runId: string, signal: RunSignal): void {
    this.emitter.emit(runId, signal);
  }

  subscribe(runId: string, listener: (signal: RunSignal) => void): () => void {
    this.emitter.on(runId, listener);
    return () => this.emitter.off(runId, listener);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

/** Resolves when the run is signalled or after `ms`, whichever is first; never rejects. */
export const waitForSignal = (notifier: RunNotifier, runId: string, ms: number, abort?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (ms <= 0 || abort?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      abort?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const unsubscribe = notifier.subscribe(runId, done);
    abort?.addEventListener('abort', done, { once: true });
  });
