import type { SseLimits } from '../../net/sse.js';
import { readProviderEvents } from '../http/providerEvents.js';
import { ModelError, type ModelItem, type ModelStreamEvent, type ModelUsage } from '../port.js';
import { classifyProviderError, providerErrorFrom, providerIdentifier } from './failures.js';
import { fromResponsesItem } from './request.js';

/**
 * Reads a Responses SSE body into model stream events (docs/spec/codex-protocol-notes.md "SSE stream").
 *
 * Items come only from `response.output_item.done`: `.added` carries half-built items and the
 * argument/text deltas are previews. Under `store: false` the Codex backend ends with an empty or
 * null terminal `output`, so the streamed items are the response; a populated terminal `output`
 * (other providers, stored responses) replaces them instead of adding to them. `item_done` events
 * are therefore emitted once, at the terminal, from whichever list won.
 */
export const TERMINAL_EVENTS = [
  'response.completed',
  'response.done',
  'response.incomplete',
  'response.failed',
] as const;

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

const count = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;

/** Responses usage in the port's normalized form; absent counts are 0, total falls back to input + output. */
export const normalizeUsage = (value: unknown): ModelUsage => {
  const usage = asRecord(value) ?? {};
  const inputDetails = asRecord(usage.input_tokens_details) ?? {};
  const outputDetails = asRecord(usage.output_tokens_details) ?? {};
  const inputTokens = count(usage.input_tokens);
  const outputTokens = count(usage.output_tokens);
  // Cache writes are not in OpenAI's own usage; compatible gateways that bill them use these spellings.
  const cacheWriteTokens =
    count(inputDetails.cache_write_tokens) ||
    count(inputDetails.cache_creation_tokens) ||
    count(usage.cache_creation_input_tokens);
  return {
    inputTokens,
    cachedInputTokens: count(inputDetails.cached_tokens),
    cacheWriteTokens,
    outputTokens,
    reasoningTokens: count(outputDetails.reasoning_tokens),
    totalTokens: count(usage.total_tokens) || inputTokens + outputTokens,
  };
};

const parseFrame = (data: string): Record<string, unknown> => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw new ModelError('protocol', 'the provider sent an SSE frame that is not JSON', { retryable: false });
  }
  const record = asRecord(parsed);
  if (record === undefined)
    throw new ModelError('protocol', 'the provider sent an SSE frame that is not an object', { retryable: false });
  return record;
};

const incompleteError = (response: Record<string, unknown>): ModelError => {
  const stated = providerIdentifier(asRecord(response.incomplete_details)?.reason) ?? 'unstated';
  return new ModelError('incomplete', `the response is incomplete: ${stated}`, {
    retryable: false,
    providerCode: stated,
  });
};

const failedError = (response: Record<string, unknown>): ModelError => {
  const stated = providerErrorFrom(response.error);
  return classifyProviderError(
    stated.code === undefined && stated.type === undefined ? { ...stated, code: 'response_failed' } : stated,
  );
};

export interface AdaptOptions {
  /** Tags reasoning items so they are replayed only to the provider that produced them. */
  readonly provider: string;
  readonly signal: AbortSignal;
  readonly limits?: SseLimits;
}

export async function* adaptResponsesStream(
  body: ReadableStream<Uint8Array>,
  options: AdaptOptions,
): AsyncGenerator<ModelStreamEvent> {
  const streamed: ModelItem[] = [];
  for await (const frame of readProviderEvents(body, options.signal, options.limits)) {
    // Frames already buffered by the reader must not outrun an abort.
    options.signal.throwIfAborted();
    if (frame.data.trim() === '[DONE]') continue;
    const event = parseFrame(frame.data);
    const type = typeof event.type === 'string' ? event.type : frame.event;
    switch (type) {
      case 'response.output_text.delta':
        if (typeof event.delta === 'string' && event.delta !== '') yield { type: 'text_delta', delta: event.delta };
        break;
      case 'response.output_item.done': {
        const item = fromResponsesItem(event.item, options.provider);
        if (item !== undefined) streamed.push(item);
        break;
      }
      case 'error':
        // Two spellings: {type:"error", code, message, param} and {type:"error", error:{…}}.
        throw classifyProviderError(providerErrorFrom(asRecord(event.error) ?? event));
      case 'response.completed':
      case 'response.done':
      case 'response.incomplete':
      case 'response.failed': {
        const response = asRecord(event.response) ?? {};
        const status = response.status;
        if (type === 'response.failed' || status === 'failed') throw failedError(response);
        if (type === 'response.incomplete' || status === 'incomplete') throw incompleteError(response);
        const terminal = Array.isArray(response.output) ? response.output : [];
        const output =
          terminal.length > 0
            ? terminal.flatMap((raw) => {
                const item = fromResponsesItem(raw, options.provider);
                return item === undefined ? [] : [item];
              })
            : streamed;
        for (const item of output) yield { type: 'item_done', item };
        const id = response.id;
        yield {
          type: 'completed',
          response: { id: typeof id === 'string' ? id : null, output, usage: normalizeUsage(response.usage) },
        };
        return;
      }
      default:
        break;
    }
  }
  // A dropped connection looks like this too, so another attempt may well succeed.
  throw new ModelError('protocol', 'stream closed before completion', { retryable: true });
}
