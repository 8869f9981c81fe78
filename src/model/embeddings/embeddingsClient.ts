import { readBoundedText } from '../../net/boundedBody.js';
import { chatFailures } from '../chat/chatFailures.js';
import { defaultProviderFetch, type ProviderFetch } from '../http/providerFetch.js';
import { ModelError } from '../port.js';
import { parseEmbeddings } from './embeddingsResponse.js';
import type { EmbeddingsSettings } from './embeddingsSettings.js';

/** Inputs per request: OpenAI takes 2,048, but local servers (llama.cpp, Ollama) batch far fewer well. */
export const EMBEDDINGS_BATCH = 64;
/** 64 vectors of 4,096 dimensions as JSON text is about 6 MB; an answer past this is not embeddings. */
const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 60_000;

export interface EmbeddingsClientOptions {
  readonly fetch?: ProviderFetch;
  readonly timeoutMs?: number;
}

/**
 * A failure in the embeddings vocabulary. Chat Completions servers and embeddings servers are the
 * same servers (OpenAI, Ollama, vLLM, llama.cpp, LM Studio), so their failures are read alike
 * (src/model/chat/chatFailures.ts); only the message names the endpoint. A server's body is never echoed.
 */
const asEmbeddingsError = (error: ModelError): ModelError => {
  const status = error.details.httpStatus;
  if (error.kind === 'protocol' || error.kind === 'aborted') return error;
  const why =
    status === undefined
      ? error.message.replace('the chat completions server', 'the embeddings endpoint')
      : `the embeddings endpoint refused the request with HTTP ${status} (${error.kind})`;
  return new ModelError(error.kind, why, error.details);
};

const postBatch = async (
  settings: EmbeddingsSettings,
  send: ProviderFetch,
  inputs: readonly string[],
  signal: AbortSignal,
  timeout: AbortSignal,
): Promise<number[][]> => {
  let text: string;
  try {
    const response = await send(`${settings.baseUrl.replace(/\/+$/, '')}/embeddings`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(settings.apiKey === undefined ? {} : { authorization: `Bearer ${settings.apiKey}` }),
      },
      body: JSON.stringify({ model: settings.model, input: inputs, encoding_format: 'float' }),
      signal,
    });
    if (!response.ok) throw await chatFailures.classifyHttpFailure(response, Date.now());
    const body = await readBoundedText(response, MAX_RESPONSE_BYTES);
    if (!body.complete)
      throw new ModelError('protocol', `the embeddings answer is larger than ${MAX_RESPONSE_BYTES} bytes`, {
        retryable: false,
      });
    text = body.text;
  } catch (error) {
    if (timeout.aborted && !(error instanceof ModelError))
      throw new ModelError('transport', 'the embeddings endpoint did not answer in time', { retryable: true });
    throw asEmbeddingsError(chatFailures.toModelError(error, signal));
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ModelError('protocol', 'the embeddings endpoint answered with a body that is not JSON', {
      retryable: false,
    });
  }
  return parseEmbeddings(json, inputs.length);
};

/**
 * An OpenAI-compatible embeddings client: `POST {baseUrl}/embeddings` in batches of at most
 * EMBEDDINGS_BATCH inputs, each request bounded in time and in answer size, each answer checked
 * (embeddingsResponse.ts). Every failure is a ModelError; the key travels only in the
 * Authorization header and redirects are refused (it would follow them elsewhere).
 */
export const embeddingsClient = (settings: EmbeddingsSettings, options: EmbeddingsClientOptions = {}) => {
  const send = options.fetch ?? defaultProviderFetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    model: settings.model,
    async embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
      const vectors: number[][] = [];
      for (let i = 0; i < texts.length; i += EMBEDDINGS_BATCH) {
        const timeout = AbortSignal.timeout(timeoutMs);
        const batchSignal = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
        const batch = texts.slice(i, i + EMBEDDINGS_BATCH);
        vectors.push(...(await postBatch(settings, send, batch, batchSignal, timeout)));
      }
      const dims = vectors[0]?.length;
      if (vectors.some((v) => v.length !== dims))
        throw new ModelError('protocol', 'the embeddings endpoint answered vectors of different lengths', {
          retryable: false,
        });
      return vectors;
    },
  };
};
