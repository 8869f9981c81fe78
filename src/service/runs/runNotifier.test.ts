import { describe, expect, it } from 'vitest';
import { LocalRunNotifier, watchRun } from './runNotifier.js';

/** Which settles first: the watch, or a turn of the event loop (the watch waiting for its bound). */
const settlesAtOnce = async (wait: Promise<void>): Promise<boolean> =>
  Promise.race([wait.then(() => true), new Promise<boolean>((resolve) => setImmediate(() => resolve(false)))]);

describe('watchRun', () => {
  const HOUR = 3_600_000;

  it('latches a signal published before the wait (between a read and its wait), so no event is waited past', async () => {
    const notifier = new LocalRunNotifier();
    const watch = watchRun(notifier, 'run_a');
    notifier.publish('run_a', 'events');
    expect(await settlesAtOnce(watch.next(HOUR))).toBe(true);
    // The latch is spent: the next wait waits for the next signal.
    const pending = watch.next(HOUR);
    expect(await settlesAtOnce(pending)).toBe(false);
    notifier.publish('run_a', 'events');
    await pending;
    watch.close();
  });

  it("ignores another run's signals, and resolves on abort and on close", async () => {
    const notifier = new LocalRunNotifier();
    const watch = watchRun(notifier, 'run_a');
    notifier.publish('run_b', 'events');
    const abort = new AbortController();
    const aborted = watch.next(HOUR, abort.signal);
    expect(await settlesAtOnce(aborted)).toBe(false);
    abort.abort();
    await aborted;
    const closed = watch.next(HOUR);
    watch.close();
    await closed;
    notifier.publish('run_a', 'events');
    await notifier.close();
  });
});
