import { checkHttpUrl, HTTP_URL_PROBLEMS } from '../../net/httpUrl.js';
import { defaultProviderFetch, type ProviderFetch } from '../http/providerFetch.js';
import { ModelError, type ModelClient, type ModelInfo, type ModelRequest, type ModelStreamEvent } from '../port.js';
import { fetchModelList, openAiModelList, type FailureDecorator, type FailureReader } from '../http/modelList.js';
import { limitsFor } from '../http/providerEvents.js';
import { maskingFailures } from '../maskSecrets.js';
import { chatFailures, classifyHttpFailure } from './chatFailures.js';
import { streamWithRetry, type RetryOptions } from '../retry.js';
import { chatRequestBody } from './chatMessages.js';
import { readChatStream } from './chatStream.js';

export interface ChatCompletionsOptions {
  /** The server's OpenAI-compatible base, e.g. `http://127.0.0.1:11434/v1`. */
  readonly baseUrl: string;
  /** Sent as a bearer token when set; local servers usually need none. */
  readonly apiKey?: string;
  /** Defaults to the global fetch, refusing redirects. */
  readonly fetchImpl?: ProviderFetch;
  /** Applied over the client's own failure reading (after secrets are masked). */
  readonly failures?: FailureDecorator;
  /** Bounded retry (src/model/retry.ts); local servers get 3 attempts unless told otherwise. */
  readonly retry?: RetryOptions;
  readonly now?: () => number;
}

/** Local servers fail fast or not at all; three attempts cover a model still loading. */
const LOCAL_SERVER_ATTEMPTS = 3;

/**
 * `ModelClient` for OpenAI Chat Completions-compatible local servers (Ollama, vLLM, llama.cpp,
 * LM Studio). Each attempt is buffered until it completes, so a retried attempt never leaks
 * half a stream to the caller (the port's contract).
 */
export class ChatCompletionsClient implements ModelClient {
  readonly provider = 'chat-completions';
  private readonly baseUrl: string;
  private readonly retry: RetryOptions;
  private readonly now: () => number;
  private readonly fetch: ProviderFetch;
  private readonly failures: FailureReader;

  constructor(private readonly options: ChatCompletionsOptions) {
    const checked = checkHttpUrl(options.baseUrl);
    if (!checked.ok) throw new TypeError(`the chat completions base URL ${HTTP_URL_PROBLEMS[checked.problem]}`);
    this.baseUrl = checked.url.href.replace(/\/+$/, '');
    this.retry = { maxAttempts: LOCAL_SERVER_ATTEMPTS, ...options.retry };
    this.now = options.now ?? Date.now;
    this.fetch = options.fetchImpl ?? defaultProviderFetch;
    // The key, masked out of every error: a server's code or type can be identifier-shaped and still quote it.
    const masked = maskingFailures(
      chatFailures,
      options.apiKey === undefined || options.apiKey === '' ? [] : [options.apiKey],
    );
    this.failures = options.failures === undefined ? masked : options.failures(masked);
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    return streamWithRetry(
      () => this.attempt(request),
      request.signal,
      (err) => this.failures.toModelError(err, request.signal),
      this.retry,
    );
  }

  async listModels(signal: AbortSignal): Promise<readonly ModelInfo[]> {
    const json = await fetchModelList(
      () => this.fetch(`${this.baseUrl}/models`, { method: 'GET', headers: this.headers(), signal }),
      signal,
      this.failures,
      this.now,
    );
    // Local servers rarely run tool calls in parallel; this client does not ask them to.
    return openAiModelList(json, false);
  }

  private headers(): Record<string, string> {
    const headers: Record<string, string> = { accept: 'text/event-stream, application/json' };
    if (this.options.apiKey !== undefined && this.options.apiKey !== '')
      headers.authorization = `Bearer ${this.options.apiKey}`;
    return headers;
  }

  /** One attempt; the retry layer holds its events until it completes. */
  private async *attempt(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    const response = await this.fetch(`${this.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { ...this.headers(), 'content-type': 'application/json' },
      body: JSON.stringify(chatRequestBody(request)),
      signal: request.signal,
    });
    if (!response.ok) throw await classifyHttpFailure(response, this.now());
    if (response.body === null)
      throw new ModelError('protocol', 'the chat completions response has no body', { retryable: true });
    const body = response.body;
    const reader = readChatStream(body, request.signal, limitsFor(request.maxResponseBytes));
    try {
      for (;;) {
        const next = await reader.next();
        if (next.done === true) {
          for (const item of next.value.output) yield { type: 'item_done', item };
          yield { type: 'completed', response: next.value };
          return;
        }
        yield next.value;
      }
    } catch (err) {
      // Close the connection of a failed attempt rather than leave the server streaming into a void.
      await body.cancel().catch(() => undefined);
      throw err;
    }
  }
}
