import type { ModelUsage } from '../domain/usage.js';

// Usage counts are a domain value (a run records them); the model port speaks them too.
export { addUsage, ZERO_USAGE, type ModelUsage } from '../domain/usage.js';
/**
 * The model port: the only surface executors see. A provider adapter (Responses gateway, Chat
 * Completions for local servers, the Codex subscription) implements `ModelClient`; everything
 * vendor-specific stays in its own module under src/model/.
 */

/** A function tool offered to the model. `parameters` is a JSON Schema object, passed through unchanged. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

/** One item of a conversation, in provider-neutral form. */
export type ModelItem =
  | { readonly type: 'message'; readonly role: 'user' | 'assistant'; readonly text: string }
  | {
      readonly type: 'function_call';
      /** The public call id the matching `function_call_output` must carry. */
      readonly callId: string;
      /** The provider's own item id (Responses `fc_…`), kept so the pair survives a resume. */
      readonly itemId?: string;
      readonly name: string;
      /** The JSON arguments exactly as the model wrote them. */
      readonly arguments: string;
    }
  | { readonly type: 'function_call_output'; readonly callId: string; readonly output: string }
  | {
      /** Provider-tagged opaque continuation state (e.g. encrypted reasoning); replayed verbatim, never shown. */
      readonly type: 'reasoning';
      readonly provider: string;
      readonly opaque: Readonly<Record<string, unknown>>;
    };

/**
 * What one call and one turn may make a model produce by default, and the operator's range.
 * A Responses stream repeats its answer about three times (deltas, the finished item, the terminal
 * response), so 8 MiB on the wire is a ~2.5 MiB answer: far beyond a research turn's needs, far
 * below what a few concurrent turns could pile onto the heap (the SSE reader's hard bound is 256 MiB).
 */
export const MODEL_OUTPUT_LIMITS = {
  responseBytes: { default: 8 * 1024 * 1024, min: 64 * 1024, max: 256 * 1024 * 1024 },
  turnChars: { default: 4 * 1024 * 1024, min: 64 * 1024, max: 64 * 1024 * 1024 },
} as const;

export interface ModelRequest {
  readonly model: string;
  /** The system prompt (Responses `instructions`). */
  readonly instructions: string;
  readonly input: readonly ModelItem[];
  readonly tools: readonly ToolSpec[];
  readonly reasoningEffort?: string;
  /** Stable cache-affinity key (the run id for batch runs). */
  readonly cacheKey?: string;
  /**
   * Bytes the provider's streamed answer may carry (HELIX_MODEL_MAX_RESPONSE_BYTES). A provider
   * that sends more fails the call with `output_limit`: one tenant's provider cannot fill the heap.
   */
  readonly maxResponseBytes?: number;
  readonly signal: AbortSignal;
}

export interface ModelResponse {
  readonly id: string | null;
  readonly output: readonly ModelItem[];
  readonly usage: ModelUsage;
}

/** Events of one completed attempt, in order; the last is always `completed`. */
export type ModelStreamEvent =
  | { readonly type: 'text_delta'; readonly delta: string }
  | { readonly type: 'item_done'; readonly item: ModelItem }
  | { readonly type: 'completed'; readonly response: ModelResponse };

export interface ModelInfo {
  readonly id: string;
  readonly displayName: string;
  readonly reasoningLevels: readonly string[];
  readonly defaultReasoningLevel: string | null;
  readonly supportsParallelToolCalls: boolean;
  readonly contextWindow: number | null;
  readonly inputModalities: readonly string[];
}

export interface ModelClient {
  /** Reported as the run's `runtime_provider`, e.g. `openai-responses`, `chat-completions`, `codex-subscription`. */
  readonly provider: string;
  /**
   * Streams one generation. Retries happen inside: whatever a failed attempt streamed is discarded,
   * and events reach the caller only from the attempt that completes. Throws `ModelError`.
   */
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
  listModels(signal: AbortSignal): Promise<readonly ModelInfo[]>;
}

/** Consumes a stream and returns its completed response. */
export const generate = async (client: ModelClient, request: ModelRequest): Promise<ModelResponse> => {
  for await (const event of client.stream(request)) {
    if (event.type === 'completed') return event.response;
  }
  throw new ModelError('protocol', 'the model stream ended without a completed response', { retryable: false });
};

export const MODEL_ERROR_KINDS = [
  /** Credentials missing, rejected, or the refresh is terminal (`reconnect-required`). */
  'auth',
  'rate_limited',
  /** Usage limit or quota reached (`insufficient_quota`, `usage_limit_reached`, `usage_not_included`). */
  'quota',
  'context_length',
  'unsupported_parameter',
  'bad_request',
  /** `response.incomplete` (`max_output_tokens`, `content_filter`). */
  'incomplete',
  'server',
  'transport',
  /** The stream violated the protocol (ended without a terminal event, bad JSON, a redirect). */
  'protocol',
  /** The answer exceeded the bytes a call, or the output a turn, may produce. */
  'output_limit',
  'aborted',
  /**
   * An owner-registered provider could not be used, for any reason a network peer could cause:
   * refused, reset, timed out, TLS or DNS failure, not HTTP, an HTTP error status, a redirect, a
   * broken stream. One kind on purpose (src/model/unreachableFailures.ts).
   */
  'unreachable',
] as const;
export type ModelErrorKind = (typeof MODEL_ERROR_KINDS)[number];

export interface ModelErrorDetails {
  readonly retryable: boolean;
  /** The provider's stated error `type`, `code`, `param` (never a token or raw body). */
  readonly providerType?: string;
  readonly providerCode?: string;
  /**
   * The provider's stated `message`, as safeProviderMessage leaves it: bounded, control characters
   * removed, token shapes and every secret the client sent masked. A turn's failure detail shows it.
   */
  readonly providerMessage?: string;
  readonly param?: string;
  readonly httpStatus?: number;
  readonly retryAfterMs?: number;
  /** Epoch ms when a usage limit resets. */
  readonly resetsAt?: number;
  /** Attempts made before giving up (set by the retry layer). */
  readonly attempts?: number;
}

/** The one error type at the model boundary; `kind` narrows in a switch. */
export class ModelError extends Error {
  override readonly name = 'ModelError';
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly details: ModelErrorDetails,
  ) {
    super(message);
  }
}

/** Which model, through which client, a turn uses; resolved per run owner (operator default otherwise). */
export interface ModelSelection {
  readonly client: ModelClient;
  readonly model: string;
  readonly reasoningEffort?: string;
}

export interface ModelResolver {
  /**
   * `ownerHash` is the run's owner; undefined means no provider is configured for it. Without
   * `ownProviders` (the account policy's `model_providers` feature is off) the owner's own
   * registrations are passed over for the operator's default.
   */
  forOwner(
    ownerHash: string,
    signal: AbortSignal,
    options: { readonly ownProviders: boolean },
  ): Promise<ModelSelection | undefined>;
}
