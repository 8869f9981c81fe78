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

/**
 * A subscription opened before the reader reads the store, so a signal published between the read
 * and the wait is latched, not lost: `next` resolves at once when the run was signalled since the
 * previous `next` (or since the watch opened), else at the next signal, after `ms`, or on abort.
 */
export interface RunWatch {
  next(ms: number, abort?: AbortSignal): Promise<void>;
  close(): void;
}

export const watchRun = (notifier: RunNotifier, runId: string): RunWatch => {
  let signalled = false;
  let wake: (() => void) | undefined;
  const unsubscribe = notifier.subscribe(runId, () => {
    signalled = true;
    wake?.();
  });
  return {
    next: (ms, abort) =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          abort?.removeEventListener('abort', done);
          wake = undefined;
          signalled = false;
          resolve();
        };
        if (signalled || ms <= 0 || abort?.aborted === true) {
          signalled = false;
          return resolve();
        }
        const timer = setTimeout(done, ms);
        wake = done;
        abort?.addEventListener('abort', done, { once: true });
      }),
    close: () => {
      unsubscribe();
      wake?.();
    },
  };
};
