import { limitsFor } from '../http/providerEvents.js';
import type { ProviderFetch } from '../http/providerFetch.js';
import { ModelError, type ModelStreamEvent } from '../port.js';
import { adaptResponsesStream } from './adapter.js';
import { classifyHttpFailure } from './failures.js';

// The Responses clients (gateway and subscription) take their fetch from here, with the rest of the wire.
export { defaultProviderFetch, type ProviderFetch } from '../http/providerFetch.js';

export interface PostResponsesInput {
  readonly fetchImpl: ProviderFetch;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Record<string, unknown>;
  readonly signal: AbortSignal;
}

/** One `POST …/responses`; the raw answer, whatever its status (the caller decides about 401). */
export const postResponses = (input: PostResponsesInput): Promise<Response> =>
  input.fetchImpl(input.url, {
    method: 'POST',
    headers: { ...input.headers, accept: 'text/event-stream', 'content-type': 'application/json' },
    body: JSON.stringify(input.body),
    signal: input.signal,
  });

/** Streams a 2xx SSE answer as model events, or throws the classified failure of any other answer. */
export async function* streamResponsesAnswer(
  response: Response,
  options: {
    readonly provider: string;
    readonly signal: AbortSignal;
    readonly now: () => number;
    readonly maxResponseBytes?: number | undefined;
  },
): AsyncGenerator<ModelStreamEvent> {
  if (!response.ok) throw await classifyHttpFailure(response, options.now());
  if (response.body === null)
    throw new ModelError('protocol', 'the provider answered without a body', { retryable: true });
  yield* adaptResponsesStream(response.body, {
    provider: options.provider,
    signal: options.signal,
    limits: limitsFor(options.maxResponseBytes),
  });
}
