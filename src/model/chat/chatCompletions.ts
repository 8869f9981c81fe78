import { fetchWithoutRedirects } from '../http/pinnedFetch.js';
import { ModelError, type ModelClient, type ModelInfo, type ModelRequest, type ModelStreamEvent } from '../port.js';
import { classifyHttpFailure, toModelError } from './chatFailures.js';
import { chatRequestBody } from './chatMessages.js';
import { readChatStream } from './chatStream.js';

export interface ChatCompletionsOptions {
  /** The server's OpenAI-compatible base, e.g. `http://127.0.0.1:11434/v1`. */
  readonly baseUrl: string;
  /** Sent as a bearer token when set; local servers usually need none. */
  readonly apiKey?: string;
  /** Attempts per generation, counting the first (default 3). */
  readonly maxAttempts?: number;
  /** Waits between attempts; injected so tests do not sleep. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly now?: () => number;
}

const BASE_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8_000;

const abortableSleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

/**
 * `ModelClient` for OpenAI Chat Completions-compatible local servers (Ollama, vLLM, llama.cpp,
 * LM Studio). Each attempt is buffered until it completes, so a retried attempt never leaks
 * half a stream to the caller (the port's contract).
 */
export class ChatCompletionsClient implements ModelClient {
  readonly provider = 'chat-completions';
  private readonly baseUrl: string;
  private readonly maxAttempts: number;
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  private readonly now: () => number;

  constructor(private readonly options: ChatCompletionsOptions) {
    const url = new URL(options.baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('the chat completions base URL must be http or https');
    this.baseUrl = url.href.replace(/\/+$/, '');
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 3);
    this.sleep = options.sleep ?? abortableSleep;
    this.now = options.now ?? Date.now;
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        yield* await this.attempt(request);
        return;
      } catch (err) {
        const error = toModelError(err, request.signal);
        if (!error.details.retryable || attempt >= this.maxAttempts) {
          throw new ModelError(error.kind, error.message, { ...error.details, attempts: attempt });
        }
        const backoff = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** (attempt - 1));
        await this.sleep(error.details.retryAfterMs ?? backoff, request.signal).catch((e: unknown) => {
          throw toModelError(e, request.signal);
        });
      }
    }
  }

  async listModels(signal: AbortSignal): Promise<readonly ModelInfo[]> {
    let body: unknown;
    try {
      const response = await fetchWithoutRedirects(`${this.baseUrl}/models`, { method: 'GET', headers: this.headers(), signal });
      if (!response.ok) throw await classifyHttpFailure(response, this.now());
      body = await response.json();
    } catch (err) {
      if (err instanceof SyntaxError) throw new ModelError('protocol', 'the model list is not JSON', { retryable: false });
      throw toModelError(err, signal);
    }
    const data = (body as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) throw new ModelError('protocol', 'the model list has no data array', { retryable: false });
    return data
      .map((entry) => (entry as { id?: unknown } | null)?.id)
      .filter((id): id is string => typeof id === 'string' && id !== '')
      .map((id) => ({
        id,
        displayName: id,
        reasoningLevels: [],
        defaultReasoningLevel: null,
        supportsParallelToolCalls: false,
        contextWindow: null,
        inputModalities: ['text'],
      }));
  }

  private headers(): Record<string, string> {
    const headers: Record<string, string> = { accept: 'text/event-stream, application/json' };
    if (this.options.apiKey !== undefined && this.options.apiKey !== '') headers['authorization'] = `Bearer ${this.options.apiKey}`;
    return headers;
  }

  /** One attempt, consumed to the end; its events are released only once it completed. */
  private async attempt(request: ModelRequest): Promise<ModelStreamEvent[]> {
    const response = await fetchWithoutRedirects(`${this.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { ...this.headers(), 'content-type': 'application/json' },
      body: JSON.stringify(chatRequestBody(request)),
      signal: request.signal,
    });
    if (!response.ok) throw await classifyHttpFailure(response, this.now());
    if (response.body === null) throw new ModelError('protocol', 'the chat completions response has no body', { retryable: true });
    const body = response.body;
    const events: ModelStreamEvent[] = [];
    const reader = readChatStream(body, request.signal);
    try {
      for (;;) {
        const next = await reader.next();
        if (next.done === true) {
          for (const item of next.value.output) events.push({ type: 'item_done', item });
          events.push({ type: 'completed', response: next.value });
          return events;
        }
        events.push(next.value);
      }
    } catch (err) {
      // Close the connection of a failed attempt rather than leave the server streaming into a void.
      await body.cancel().catch(() => undefined);
      throw err;
    }
  }
}
