import { ModelError, type ModelStreamEvent } from './port.js';

/**
 * Bounded retry around one model generation (contract: "A transient failure … is issued again
 * under the bounded backoff"). Each attempt's events are held until the attempt completes, so
 * whatever a failed attempt streamed is discarded with it and never reaches the harness.
 */
export interface RetryOptions {
  /** Total attempts including the first; default 4. */
  readonly maxAttempts?: number;
  /** First backoff step; default 500 ms, doubling per attempt. */
  readonly baseDelayMs?: number;
  /** Ceiling of the exponential backoff; default 8 s. */
  readonly maxDelayMs?: number;
  /**
   * The longest provider-stated wait (`retry-after`, "try again in …") honoured; default 60 s.
   * A longer stated wait ends the generation with that error rather than holding a turn open.
   */
  readonly maxRetryAfterMs?: number;
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** In [0, 1); injectable so tests can pin the jitter. */
  readonly random?: () => number;
}

export const DEFAULT_RETRY = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 } as const;

const abortedError = () => new ModelError('aborted', 'the model request was aborted', { retryable: false });

/** Resolves after `ms`, or rejects with ModelError('aborted') as soon as `signal` aborts. */
export const abortableSleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortedError());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

/**
 * "Equal jitter": half the exponential step is fixed and half random, so retries from many runs
 * spread out but none retries immediately. `retry` counts from 1.
 */
export const backoffDelayMs = (retry: number, random: () => number, options: RetryOptions = {}): number => {
  const base = options.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs;
  const cap = options.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs;
  const step = Math.min(cap, base * 2 ** (retry - 1));
  return Math.round(step / 2 + (random() * step) / 2);
};

const withAttempts = (error: ModelError, attempts: number): ModelError => {
  const final = new ModelError(error.kind, error.message, { ...error.details, attempts });
  if (error.stack !== undefined) final.stack = error.stack;
  return final;
};

/**
 * Runs `attempt` until one completes or a failure is final. `toError` turns whatever an attempt
 * threw into a ModelError (the transport knows how to read its own faults and aborts).
 */
export async function* streamWithRetry(
  attempt: () => AsyncIterable<ModelStreamEvent>,
  signal: AbortSignal,
  toError: (error: unknown) => ModelError,
  options: RetryOptions = {},
): AsyncGenerator<ModelStreamEvent> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULT_RETRY.maxAttempts);
  const maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_RETRY.maxRetryAfterMs;
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  for (let attempts = 1; ; attempts += 1) {
    if (signal.aborted) throw withAttempts(abortedError(), attempts - 1);
    const buffered: ModelStreamEvent[] = [];
    let failure: ModelError | undefined;
    try {
      for await (const event of attempt()) buffered.push(event);
    } catch (error) {
      failure = toError(error);
    }
    if (failure === undefined) {
      if (buffered.at(-1)?.type !== 'completed') {
        throw withAttempts(
          new ModelError('protocol', 'the model stream ended without a completed response', { retryable: false }),
          attempts,
        );
      }
      yield* buffered;
      return;
    }
    if (!failure.details.retryable || attempts >= maxAttempts) throw withAttempts(failure, attempts);
    const stated = failure.details.retryAfterMs;
    if (stated !== undefined && stated > maxRetryAfterMs) throw withAttempts(failure, attempts);
    try {
      await sleep(stated ?? backoffDelayMs(attempts, random, options), signal);
    } catch {
      throw withAttempts(abortedError(), attempts);
    }
  }
}
