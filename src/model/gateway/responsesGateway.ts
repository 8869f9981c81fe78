import { ModelError, type ModelClient, type ModelInfo, type ModelRequest, type ModelStreamEvent } from '../port.js';
import { classifyHttpFailure, toModelError } from '../responses/failures.js';
import { toResponsesBody } from '../responses/request.js';
import { defaultProviderFetch, parseModelList, postResponses, streamResponsesAnswer, type ProviderFetch } from '../responses/transport.js';
import { streamWithRetry, type RetryOptions } from '../retry.js';

export const RESPONSES_GATEWAY_PROVIDER = 'openai-responses';

export interface ResponsesGatewayOptions {
  /** e.g. `https://api.openai.com/v1`; `/responses` and `/models` are appended. */
  readonly baseUrl: string;
  /** Sent as a bearer token; a keyless gateway (a local proxy) takes none. */
  readonly apiKey?: string;
  readonly fetchImpl?: ProviderFetch;
  readonly retry?: RetryOptions;
  readonly now?: () => number;
}

/** A `ModelClient` for an OpenAI-compatible Responses API (the `gateway` wire profile). */
export class ResponsesGatewayClient implements ModelClient {
  readonly provider = RESPONSES_GATEWAY_PROVIDER;
  readonly #baseUrl: string;
  readonly #auth: Record<string, string>;
  readonly #fetch: ProviderFetch;
  readonly #retry: RetryOptions;
  readonly #now: () => number;

  constructor(options: ResponsesGatewayOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#auth = options.apiKey === undefined || options.apiKey === '' ? {} : { authorization: `Bearer ${options.apiKey}` };
    this.#fetch = options.fetchImpl ?? defaultProviderFetch;
    this.#retry = options.retry ?? {};
    this.#now = options.now ?? Date.now;
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const body = toResponsesBody(request, { profile: 'gateway', provider: this.provider });
    const signal = request.signal;
    const attempt = async function* (this: ResponsesGatewayClient): AsyncGenerator<ModelStreamEvent> {
      const response = await postResponses({
        fetchImpl: this.#fetch,
        url: `${this.#baseUrl}/responses`,
        headers: { ...this.#auth },
        body,
        signal,
      });
      yield* streamResponsesAnswer(response, { provider: this.provider, signal, now: this.#now });
    }.bind(this);
    return streamWithRetry(attempt, signal, (error) => toModelError(error, signal), this.#retry);
  }

  async listModels(signal: AbortSignal): Promise<readonly ModelInfo[]> {
    let text: string;
    try {
      const response = await this.#fetch(`${this.#baseUrl}/models`, {
        method: 'GET',
        headers: { ...this.#auth, accept: 'application/json' },
        signal,
      });
      if (!response.ok) throw await classifyHttpFailure(response, this.#now());
      text = await response.text();
    } catch (error) {
      throw toModelError(error, signal);
    }
    const json = parseModelList(text);
    const data = typeof json === 'object' && json !== null ? (json as { data?: unknown }).data : undefined;
    if (!Array.isArray(data)) throw new ModelError('protocol', 'the model list has no `data` array', { retryable: false });
    return data.flatMap((entry: unknown): ModelInfo[] => {
      const id = typeof entry === 'object' && entry !== null ? (entry as { id?: unknown }).id : undefined;
      if (typeof id !== 'string' || id === '') return [];
      // `/models` on a compatible API says nothing about capabilities; parallel tool calls is what
      // this client always requests, the rest is unknown.
      return [
        {
          id,
          displayName: id,
          reasoningLevels: [],
          defaultReasoningLevel: null,
          supportsParallelToolCalls: true,
          contextWindow: null,
          inputModalities: [],
        },
      ];
    });
  }
}
