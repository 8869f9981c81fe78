import { DEFAULT_SSE_LIMITS, readSseFrames, SseLimitError, type SseFrame, type SseLimits } from '../../net/sse.js';
import { ModelError } from '../port.js';

/**
 * A provider's event stream (src/net/sse.ts), its bounds told in the model's vocabulary: a stream
 * past a bound is ModelError('output_limit'), not retried, since the same server would only do it
 * again. Every other failure (an abort, a reset) passes through as the reader threw it.
 */
export async function* readProviderEvents(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
  limits: SseLimits = {},
): AsyncGenerator<SseFrame> {
  try {
    yield* readSseFrames(body, signal, limits);
  } catch (error) {
    if (error instanceof SseLimitError)
      throw new ModelError('output_limit', `the provider's event stream exceeded ${error.limit} ${error.unit}`, {
        retryable: false,
      });
    throw error;
  }
}

/** The reader's limits for one call allowed `maxResponseBytes`: no frame can be larger than the whole answer. */
export const limitsFor = (maxResponseBytes: number | undefined): SseLimits =>
  maxResponseBytes === undefined
    ? {}
    : { maxStreamBytes: maxResponseBytes, maxFrameChars: Math.min(DEFAULT_SSE_LIMITS.maxFrameChars, maxResponseBytes) };
