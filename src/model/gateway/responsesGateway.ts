import type { ModelClient, ModelInfo, ModelRequest, ModelStreamEvent } from '../port.js';
import { fetchModelList, openAiModelList, type FailureDecorator, type FailureReader } from '../http/modelList.js';
import { maskingFailures } from '../maskSecrets.js';
import { responsesFailures } from '../responses/failures.js';
import { toResponsesBody } from '../responses/request.js';
import {
  defaultProviderFetch,
  postResponses,
  streamResponsesAnswer,
  type ProviderFetch,
} from '../responses/transport.js';
import { streamWithRetry, type RetryOptions } from '../retry.js';

export const RESPONSES_GATEWAY_PROVIDER = 'openai-responses';

export interface ResponsesGatewayOptions {
  /** e.g. `https://api.openai.com/v1`; `/responses` and `/models` are appended. */
  readonly baseUrl: string;
  /** Sent as a bearer token; a keyless gateway (a local proxy) takes none. */
  readonly apiKey?: string;
  readonly fetchImpl?: ProviderFetch;
  /** Applied over the client's own failure reading (after secrets are masked). */
  readonly failures?: FailureDecorator;
  readonly retry?: RetryOptions;
  readonly now?: () => number;
}

/** A `ModelClient` for an OpenAI-compatible Responses API (the `gateway` wire profile). */
export class ResponsesGatewayClient implements ModelClient {
  readonly provider = RESPONSES_GATEWAY_PROVIDER;
  readonly #baseUrl: string;
  readonly #auth: Record<string, string>;
  /** The key, masked out of every error: a gateway may quote it back, and not every key looks like `sk-…`. */
  readonly #secrets: readonly string[];
  readonly #fetch: ProviderFetch;
  readonly #failures: FailureReader;
  readonly #retry: RetryOptions;
  readonly #now: () => number;

  constructor(options: ResponsesGatewayOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#auth =
      options.apiKey === undefined || options.apiKey === '' ? {} : { authorization: `Bearer ${options.apiKey}` };
    this.#secrets = options.apiKey === undefined || options.apiKey === '' ? [] : [options.apiKey];
    this.#fetch = options.fetchImpl ?? defaultProviderFetch;
    const masked = maskingFailures(responsesFailures, this.#secrets);
    this.#failures = options.failures === undefined ? masked : options.failures(masked);
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
      yield* streamResponsesAnswer(response, {
        provider: this.provider,
        signal,
        now: this.#now,
        maxResponseBytes: request.maxResponseBytes,
      });
    }.bind(this);
    return streamWithRetry(attempt, signal, (error) => this.#failures.toModelError(error, signal), this.#retry);
  }

  async listModels(signal: AbortSignal): Promise<readonly ModelInfo[]> {
    const json = await fetchModelList(
      () =>
        this.#fetch(`${this.#baseUrl}/models`, {
          method: 'GET',
          headers: { ...this.#auth, accept: 'application/json' },
          signal,
        }),
      signal,
      this.#failures,
      this.#now,
    );
    // This client always asks for parallel tool calls.
    return openAiModelList(json, true);
  }
}
