import { randomUUID } from 'node:crypto';
import { arch, release, type as osType } from 'node:os';
import type { ModelClient, ModelInfo, ModelRequest, ModelStreamEvent } from '../port.js';
import { fetchModelList } from '../http/modelList.js';
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
import type { CodexAccess, CodexCredentialSource } from './credentials.js';
import { CODEX_ORIGINATOR, codexPaths, type CodexEndpoints } from './endpoints.js';
import { parseCodexModels } from './models.js';

export const CODEX_SUBSCRIPTION_PROVIDER = 'codex-subscription';

export interface CodexResponsesOptions {
  readonly credentials: CodexCredentialSource;
  readonly endpoints: CodexEndpoints;
  /** Helix's version, sent in the User-Agent. */
  readonly version: string;
  readonly fetchImpl?: ProviderFetch;
  readonly retry?: RetryOptions;
  readonly now?: () => number;
}

/** `<product>/<version> (<os> <release>; <arch>)`, the shape the public Codex clients send. */
export const codexUserAgent = (version: string): string => `helix/${version} (${osType()} ${release()}; ${arch()})`;

/**
 * The ChatGPT Codex subscription as a `ModelClient`: the pinned Responses contract over SSE
 * (docs/spec/codex-subscription-protocol.md). Every request carries the bearer token, account id and
 * originator; `session-id` and `prompt_cache_key` share the run's cache-affinity key, and each
 * HTTP request gets its own `x-client-request-id`.
 */
export class CodexResponsesClient implements ModelClient {
  readonly provider = CODEX_SUBSCRIPTION_PROVIDER;
  readonly #options: CodexResponsesOptions;
  readonly #fetch: ProviderFetch;
  readonly #now: () => number;
  readonly #userAgent: string;

  constructor(options: CodexResponsesOptions) {
    this.#options = options;
    this.#fetch = options.fetchImpl ?? defaultProviderFetch;
    this.#now = options.now ?? Date.now;
    this.#userAgent = codexUserAgent(options.version);
  }

  #identity(access: CodexAccess, sessionId: string | undefined): Record<string, string> {
    return {
      authorization: `Bearer ${access.accessToken}`,
      'chatgpt-account-id': access.accountId,
      originator: CODEX_ORIGINATOR,
      'user-agent': this.#userAgent,
      'x-client-request-id': randomUUID(),
      ...(sessionId !== undefined ? { 'session-id': sessionId } : {}),
    };
  }

  /**
   * Sends with current access; on a 401, lets the credential side re-read or refresh once and sends
   * once more (protocol notes "Tokens"). A second 401 is returned as is and classified as auth.
   */
  async #sendAuthorized(
    send: (access: CodexAccess) => Promise<Response>,
    signal: AbortSignal,
    used: Set<string>,
  ): Promise<Response> {
    const access = await this.#options.credentials.access(signal);
    used.add(access.accessToken).add(access.accountId);
    const first = await send(access);
    if (first.status !== 401) return first;
    await first.body?.cancel().catch(() => undefined);
    const renewed = await this.#options.credentials.afterUnauthorized(access, signal);
    used.add(renewed.accessToken).add(renewed.accountId);
    return send(renewed);
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const body = toResponsesBody(request, { profile: 'codex', provider: this.provider });
    const signal = request.signal;
    const url = `${this.#options.endpoints.api}${codexPaths.responses}`;
    // Every token and account id sent, masked out of any error: the backend may quote them back.
    const used = new Set<string>();
    const attempt = async function* (this: CodexResponsesClient): AsyncGenerator<ModelStreamEvent> {
      const response = await this.#sendAuthorized(
        (access) =>
          postResponses({
            fetchImpl: this.#fetch,
            url,
            headers: this.#identity(access, request.cacheKey),
            body,
            signal,
          }),
        signal,
        used,
      );
      yield* streamResponsesAnswer(response, {
        provider: this.provider,
        signal,
        now: this.#now,
        maxResponseBytes: request.maxResponseBytes,
      });
    }.bind(this);
    const failures = maskingFailures(responsesFailures, used);
    return streamWithRetry(attempt, signal, (error) => failures.toModelError(error, signal), this.#options.retry ?? {});
  }

  async listModels(signal: AbortSignal): Promise<readonly ModelInfo[]> {
    const url = `${this.#options.endpoints.api}${codexPaths.models}`;
    const used = new Set<string>();
    const failures = maskingFailures(responsesFailures, used);
    const json = await fetchModelList(
      () =>
        this.#sendAuthorized(
          (access) =>
            this.#fetch(url, {
              method: 'GET',
              headers: { ...this.#identity(access, undefined), accept: 'application/json' },
              signal,
            }),
          signal,
          used,
        ),
      signal,
      failures,
      this.#now,
    );
    return parseCodexModels(json);
  }
}
