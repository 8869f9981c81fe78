import { ModelError, type ModelInfo } from '../port.js';
import { readBoundedText } from '../../net/boundedBody.js';

/** Codex's list with every capability is tens of KiB; a list past this is not a model list. */
const MAX_MODEL_LIST_BYTES = 4 * 1024 * 1024;

/** How one provider family reads its own failures (Responses and Chat Completions differ). */
export interface FailureReader {
  classifyHttpFailure(response: Response, now: number): Promise<ModelError>;
  toModelError(error: unknown, signal: AbortSignal): ModelError;
}

/** Rewrites how a client reads its failures (owner-registered providers: src/model/unreachableFailures.ts). */
export type FailureDecorator = (failures: FailureReader) => FailureReader;

/**
 * Fetches a provider's model list and parses it as JSON. A non-2xx answer is the provider's
 * classified failure; a body that is not JSON is the provider breaking the protocol, not a network
 * fault, so it is not retryable.
 */
export const fetchModelList = async (
  send: () => Promise<Response>,
  signal: AbortSignal,
  failures: FailureReader,
  now: () => number,
): Promise<unknown> => {
  let body: { readonly text: string; readonly complete: boolean };
  try {
    const response = await send();
    if (!response.ok) throw await failures.classifyHttpFailure(response, now());
    body = await readBoundedText(response, MAX_MODEL_LIST_BYTES);
  } catch (error) {
    throw failures.toModelError(error, signal);
  }
  if (!body.complete)
    throw new ModelError('protocol', `the model list is larger than ${MAX_MODEL_LIST_BYTES} bytes`, {
      retryable: false,
    });
  const text = body.text;
  try {
    return JSON.parse(text);
  } catch {
    throw new ModelError('protocol', 'the model list is not JSON', { retryable: false });
  }
};

/**
 * The OpenAI-compatible `GET /models` shape, `{data: [{id}]}`. It says nothing about capabilities,
 * so each entry carries only its id and what the client itself always does with parallel tool calls.
 */
export const openAiModelList = (json: unknown, supportsParallelToolCalls: boolean): ModelInfo[] => {
  const data = typeof json === 'object' && json !== null ? (json as { data?: unknown }).data : undefined;
  if (!Array.isArray(data))
    throw new ModelError('protocol', 'the model list has no `data` array', { retryable: false });
  return data.flatMap((entry: unknown): ModelInfo[] => {
    const id = typeof entry === 'object' && entry !== null ? (entry as { id?: unknown }).id : undefined;
    if (typeof id !== 'string' || id === '') return [];
    return [
      {
        id,
        displayName: id,
        reasoningLevels: [],
        defaultReasoningLevel: null,
        supportsParallelToolCalls,
        contextWindow: null,
        inputModalities: [],
      },
    ];
  });
};
