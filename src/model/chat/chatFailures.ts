import { readBoundedText } from '../../net/boundedBody.js';
import { ModelError, type ModelErrorKind } from '../port.js';

/**
 * How a Chat Completions server's refusal becomes a ModelError. Local servers word their errors
 * freely (llama.cpp "the request exceeds the available context size", vLLM "maximum context
 * length is …", Ollama plain strings), so the status decides the kind and the wording only
 * separates a context overflow from other bad requests. Messages are ours: a server's body is
 * never echoed, so nothing it reflects back (a key, a prompt) can leak into logs or events.
 */
const CONTEXT_WORDING = /context[ _-]?(length|size|window)|maximum context|too many tokens|n_ctx|prompt is too long/i;
const IDENTIFIER = /^[A-Za-z0-9_.-]{1,64}$/;
const MAX_ERROR_BODY = 64 * 1024;

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

const identifier = (value: unknown): string | undefined =>
  typeof value === 'string' && IDENTIFIER.test(value) ? value : undefined;

interface Stated {
  readonly type: string | undefined;
  readonly code: string | undefined;
  readonly mentionsContext: boolean;
}

const statedFrom = (error: unknown): Stated => {
  const record = asRecord(error);
  const words =
    typeof error === 'string'
      ? error
      : [record?.message, record?.type, record?.code].filter((v) => typeof v === 'string').join(' ');
  return {
    type: identifier(record?.type),
    code: identifier(record?.code),
    mentionsContext: CONTEXT_WORDING.test(words),
  };
};

const kindForStatus = (status: number, stated: Stated): { kind: ModelErrorKind; retryable: boolean } => {
  if (status === 401 || status === 403) return { kind: 'auth', retryable: false };
  if (status === 429) return { kind: 'rate_limited', retryable: true };
  if (status === 408) return { kind: 'transport', retryable: true };
  if (status >= 500) return { kind: 'server', retryable: true };
  if (stated.mentionsContext) return { kind: 'context_length', retryable: false };
  return { kind: 'bad_request', retryable: false };
};

/** An error object a server sent (an HTTP error body's `error`, or an in-stream `{"error": …}` chunk). */
export const classifyStatedError = (
  error: unknown,
  httpStatus: number | undefined,
  retryAfterMs?: number,
): ModelError => {
  const stated = statedFrom(error);
  const verdict =
    httpStatus !== undefined
      ? kindForStatus(httpStatus, stated)
      : stated.mentionsContext
        ? { kind: 'context_length' as const, retryable: false }
        : { kind: 'server' as const, retryable: false };
  const name = stated.code ?? stated.type;
  const where = httpStatus === undefined ? 'in the stream' : `with HTTP ${httpStatus}`;
  return new ModelError(
    verdict.kind,
    `the chat completions server refused the request ${where}${name === undefined ? '' : ` (${name})`}`,
    {
      retryable: verdict.retryable,
      ...(stated.type !== undefined ? { providerType: stated.type } : {}),
      ...(stated.code !== undefined ? { providerCode: stated.code } : {}),
      ...(httpStatus !== undefined ? { httpStatus } : {}),
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    },
  );
};

/** `retry-after` as delta-seconds or an HTTP-date (RFC 9110 §10.2.3). */
const retryAfter = (headers: Headers, now: number): number | undefined => {
  const value = headers.get('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
};

export const classifyHttpFailure = async (response: Response, now: number): Promise<ModelError> => {
  const { text } = await readBoundedText(response, MAX_ERROR_BODY).catch(() => ({ text: '' }));
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  const error = asRecord(body)?.error ?? body;
  return classifyStatedError(error, response.status, retryAfter(response.headers, now));
};

/** Anything thrown while talking to the server: an abort wins, a network fault is retryable. */
export const toModelError = (error: unknown, signal: AbortSignal): ModelError => {
  if (signal.aborted) return new ModelError('aborted', 'the model request was aborted', { retryable: false });
  if (error instanceof ModelError) return error;
  // Only the system error code (ECONNREFUSED…) is kept: a fetch message can quote the URL.
  const code = identifier((error as { cause?: { code?: unknown } } | undefined)?.cause?.code);
  return new ModelError(
    'transport',
    `could not reach the chat completions server${code === undefined ? '' : ` (${code})`}`,
    { retryable: true },
  );
};

/** The Chat Completions family's failure reading, as the shared model-list fetch takes it. */
export const chatFailures = { classifyHttpFailure, toModelError } as const;
