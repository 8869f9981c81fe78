import type { SseLimits } from '../../net/sse.js';
import { readProviderEvents } from '../http/providerEvents.js';
import { ModelError, ZERO_USAGE, type ModelItem, type ModelResponse, type ModelUsage } from '../port.js';
import { classifyStatedError } from './chatFailures.js';

interface PartialCall {
  id: string | undefined;
  name: string;
  arguments: string;
}

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

const count = (value: unknown): number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;

/** Chat Completions `usage` (with the OpenAI detail objects local servers increasingly copy) as ModelUsage. */
export const usageFrom = (value: unknown): ModelUsage => {
  const usage = asRecord(value);
  if (usage === undefined) return ZERO_USAGE;
  const input = count(usage.prompt_tokens);
  const output = count(usage.completion_tokens);
  return {
    inputTokens: input,
    cachedInputTokens: count(asRecord(usage.prompt_tokens_details)?.cached_tokens),
    cacheWriteTokens: 0,
    outputTokens: output,
    reasoningTokens: count(asRecord(usage.completion_tokens_details)?.reasoning_tokens),
    totalTokens: count(usage.total_tokens) || input + output,
  };
};

/** `length` and `content_filter` mean the answer was cut off: its tool-call arguments cannot be trusted. */
const INCOMPLETE_REASONS = new Set(['length', 'content_filter']);

/**
 * Reads one streamed completion: content deltas become `text_delta`, tool-call deltas are
 * accumulated by their `index` (id and name arrive once, arguments in fragments). The stream is
 * complete at `[DONE]` or, for servers that omit it, when it ends after a `finish_reason`; ending
 * before either is a protocol error, so a cut connection never passes for a finished answer.
 */
export async function* readChatStream(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
  limits: SseLimits = {},
): AsyncGenerator<{ type: 'text_delta'; delta: string }, ModelResponse> {
  let id: string | null = null;
  let text = '';
  let usage = ZERO_USAGE;
  let finishReason: string | undefined;
  let done = false;
  const calls = new Map<number, PartialCall>();
  for await (const frame of readProviderEvents(body, signal, limits)) {
    if (frame.data === '[DONE]') {
      done = true;
      break;
    }
    let chunk: Record<string, unknown> | undefined;
    try {
      chunk = asRecord(JSON.parse(frame.data));
    } catch {
      chunk = undefined;
    }
    if (chunk === undefined)
      throw new ModelError('protocol', 'the chat completions stream sent a chunk that is not a JSON object', {
        retryable: false,
      });
    if (chunk.error !== undefined) throw classifyStatedError(chunk.error, undefined);
    if (typeof chunk.id === 'string') id = chunk.id;
    if (chunk.usage !== undefined && chunk.usage !== null) usage = usageFrom(chunk.usage);
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    for (const choice of choices.map(asRecord)) {
      if (choice === undefined || count(choice.index) !== 0) continue;
      const delta = asRecord(choice.delta) ?? {};
      if (typeof delta.content === 'string' && delta.content !== '') {
        text += delta.content;
        yield { type: 'text_delta', delta: delta.content };
      }
      for (const raw of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) accumulate(calls, asRecord(raw));
      if (typeof choice.finish_reason === 'string') finishReason = choice.finish_reason;
    }
  }
  if (!done && finishReason === undefined) {
    throw new ModelError('protocol', 'the chat completions stream ended before [DONE] or a finish_reason', {
      retryable: true,
    });
  }
  if (finishReason !== undefined && INCOMPLETE_REASONS.has(finishReason)) {
    throw new ModelError('incomplete', `the completion stopped early (finish_reason ${finishReason})`, {
      retryable: false,
      providerCode: finishReason,
    });
  }
  const output: ModelItem[] = [];
  if (text !== '') output.push({ type: 'message', role: 'assistant', text });
  for (const [index, call] of [...calls.entries()].sort(([a], [b]) => a - b)) {
    if (call.name === '')
      throw new ModelError('protocol', `tool call ${index} arrived without a function name`, { retryable: false });
    output.push({
      type: 'function_call',
      callId: call.id ?? `call_${id ?? 'chat'}_${index}`,
      name: call.name,
      arguments: call.arguments,
    });
  }
  return { id, output, usage };
}

const accumulate = (calls: Map<number, PartialCall>, delta: Record<string, unknown> | undefined): void => {
  if (delta === undefined) return;
  const index = count(delta.index);
  const call = calls.get(index) ?? { id: undefined, name: '', arguments: '' };
  calls.set(index, call);
  if (typeof delta.id === 'string' && delta.id !== '') call.id = delta.id;
  const fn = asRecord(delta.function);
  // The name arrives whole on the call's first delta; servers that repeat it later must not double it.
  if (typeof fn?.name === 'string' && call.name === '') call.name = fn.name;
  if (typeof fn?.arguments === 'string') call.arguments += fn.arguments;
};
