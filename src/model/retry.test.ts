import { describe, expect, it } from 'vitest';
import { ModelError, ZERO_USAGE, type ModelStreamEvent } from './port.js';
import { abortableSleep, backoffDelayMs, streamWithRetry, type RetryOptions } from './retry.js';

const done: ModelStreamEvent = { type: 'completed', response: { id: 'r', output: [], usage: ZERO_USAGE } };
const transient = (retryAfterMs?: number) =>
  new ModelError('server', 'overloaded', { retryable: true, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });

/** An attempt script: each entry streams its deltas, then completes or throws its error. */
type Step = { readonly deltas?: readonly string[]; readonly fail?: ModelError };

const scripted = (steps: readonly Step[]) => {
  let calls = 0;
  const attempt = async function* (): AsyncGenerator<ModelStreamEvent> {
    const step = steps[calls] ?? {};
    calls += 1;
    for (const delta of step.deltas ?? []) yield { type: 'text_delta', delta };
    if (step.fail !== undefined) throw step.fail;
    yield done;
  };
  return { attempt, calls: () => calls };
};

const recordingSleep = () => {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
};

const collect = async (steps: readonly Step[], options: RetryOptions, signal = new AbortController().signal) => {
  const script = scripted(steps);
  const events: ModelStreamEvent[] = [];
  let error: ModelError | undefined;
  try {
    for await (const event of streamWithRetry(script.attempt, signal, (e) => e as ModelError, options))
      events.push(event);
  } catch (thrown) {
    error = thrown as ModelError;
  }
  return { events, error, calls: script.calls() };
};

describe('streamWithRetry', () => {
  it('discards what a failed attempt streamed and yields only the completing attempt', async () => {
    const { sleep, waits } = recordingSleep();
    const result = await collect([{ deltas: ['partial'], fail: transient() }, { deltas: ['final'] }], {
      sleep,
      random: () => 0,
    });
    expect(result.events).toEqual([{ type: 'text_delta', delta: 'final' }, done]);
    expect(result.calls).toBe(2);
    expect(waits).toEqual([250]);
  });

  it('backs off exponentially with jitter under the cap, and gives up after maxAttempts with attempts recorded', async () => {
    const { sleep, waits } = recordingSleep();
    const result = await collect(
      Array.from({ length: 6 }, () => ({ fail: transient() })),
      { sleep, random: () => 0.999999, maxAttempts: 6 },
    );
    expect(result.calls).toBe(6);
    expect(waits).toEqual([500, 1000, 2000, 4000, 8000]);
    expect(result.error).toMatchObject({ kind: 'server', details: { attempts: 6, retryable: true } });
  });

  it('defaults to 4 attempts', async () => {
    const { sleep } = recordingSleep();
    const result = await collect(
      Array.from({ length: 9 }, () => ({ fail: transient() })),
      { sleep },
    );
    expect(result.calls).toBe(4);
    expect(result.error?.details.attempts).toBe(4);
  });

  it('a non-retryable failure is not retried', async () => {
    const { sleep, waits } = recordingSleep();
    const quota = new ModelError('quota', 'usage limit', { retryable: false });
    const result = await collect([{ fail: quota }, {}], { sleep });
    expect(result.calls).toBe(1);
    expect(waits).toEqual([]);
    expect(result.error).toMatchObject({ kind: 'quota', message: 'usage limit', details: { attempts: 1 } });
  });

  it('a stated wait wins over the backoff; one beyond the cap is surfaced instead of waited out', async () => {
    const first = recordingSleep();
    const honoured = await collect([{ fail: transient(11_054) }, {}], { sleep: first.sleep, random: () => 0 });
    expect(first.waits).toEqual([11_054]);
    expect(honoured.events.at(-1)).toEqual(done);

    const second = recordingSleep();
    const surfaced = await collect([{ fail: transient(120_000) }, {}], {
      sleep: second.sleep,
      maxRetryAfterMs: 60_000,
    });
    expect(second.waits).toEqual([]);
    expect(surfaced.calls).toBe(1);
    expect(surfaced.error?.details).toMatchObject({ retryAfterMs: 120_000, attempts: 1 });
  });

  it('an abort during the wait ends with aborted, without another attempt', async () => {
    const controller = new AbortController();
    const sleep = (ms: number, signal: AbortSignal) => {
      controller.abort();
      return abortableSleep(ms, signal);
    };
    const result = await collect([{ fail: transient() }, {}], { sleep }, controller.signal);
    expect(result.calls).toBe(1);
    expect(result.error).toMatchObject({ kind: 'aborted', details: { attempts: 1 } });
  });

  it('an attempt that ends without completed is a protocol error', async () => {
    const attempt = async function* (): AsyncGenerator<ModelStreamEvent> {
      yield { type: 'text_delta', delta: 'x' };
    };
    const run = streamWithRetry(attempt, new AbortController().signal, (e) => e as ModelError);
    await expect(run.next()).rejects.toMatchObject({ kind: 'protocol' });
  });
});

describe('backoffDelayMs', () => {
  it('stays within [step/2, step] and never exceeds the cap', () => {
    for (const retry of [1, 2, 3, 4, 5, 10]) {
      const step = Math.min(8_000, 500 * 2 ** (retry - 1));
      expect(backoffDelayMs(retry, () => 0)).toBe(step / 2);
      expect(backoffDelayMs(retry, () => 0.999999)).toBeLessThanOrEqual(step);
    }
  });
});

describe('abortableSleep', () => {
  it('rejects at once when already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(abortableSleep(60_000, controller.signal)).rejects.toMatchObject({ kind: 'aborted' });
  });
});
