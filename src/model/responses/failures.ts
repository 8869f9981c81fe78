import { readBoundedText } from '../../net/boundedBody.js';
import { ModelError, type ModelErrorKind } from '../port.js';

/**
 * Failure classification for Responses providers (docs/spec/codex-protocol-notes.md "SSE stream" and the
 * contract's retry paragraph). One table decides kind and retryability from the provider's stated
 * `code` (or `type`), so an in-stream `error`, a `response.failed` terminal and an HTTP error body
 * that name the same condition end the same way.
 */

/** The fields a provider states about an error; everything else in its body is ignored. */
export interface ProviderError {
  readonly type?: string | undefined;
  readonly code?: string | undefined;
  readonly message?: string | undefined;
  readonly param?: string | undefined;
}

interface Verdict {
  readonly kind: ModelErrorKind;
  readonly retryable: boolean;
}

const BY_CODE: Readonly<Record<string, Verdict>> = {
  context_length_exceeded: { kind: 'context_length', retryable: false },
  insufficient_quota: { kind: 'quota', retryable: false },
  usage_not_included: { kind: 'quota', retryable: false },
  usage_limit_reached: { kind: 'quota', retryable: false },
  unsupported_parameter: { kind: 'unsupported_parameter', retryable: false },
  rate_limit_exceeded: { kind: 'rate_limited', retryable: true },
  server_is_overloaded: { kind: 'server', retryable: true },
  slow_down: { kind: 'server', retryable: true },
  server_error: { kind: 'server', retryable: true },
  internal_error: { kind: 'server', retryable: true },
  invalid_prompt: { kind: 'bad_request', retryable: false },
  invalid_request_error: { kind: 'bad_request', retryable: false },
};

// The contract retries a code or type that "names overload, rate limiting, or a server fault";
// providers spell these several ways (service_unavailable_error, overloaded_error, …).
const TRANSIENT_NAME = /overload|rate_limit|server|unavailable|slow_down|timeout|internal/;

const verdictFor = (error: ProviderError): Verdict | undefined => {
  for (const name of [error.code, error.type]) {
    if (name === undefined) continue;
    const known = BY_CODE[name];
    if (known !== undefined) return known;
  }
  for (const name of [error.code, error.type]) {
    if (name !== undefined && TRANSIENT_NAME.test(name)) {
      return { kind: name.includes('rate_limit') ? 'rate_limited' : 'server', retryable: true };
    }
  }
  return undefined;
};

const verdictForStatus = (status: number): Verdict => {
  if (status === 401 || status === 403) return { kind: 'auth', retryable: false };
  if (status === 429) return { kind: 'rate_limited', retryable: true };
  if (status === 408) return { kind: 'transport', retryable: true };
  if (status >= 500) return { kind: 'server', retryable: true };
  return { kind: 'bad_request', retryable: false };
};

const SECRET_SHAPES = [/\bsk-[A-Za-z0-9_*-]{6,}/g, /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_.-]*/g, /\bBearer\s+\S+/gi];

/** Control and format characters (C0, C1, bidi overrides, zero-width, line separators): never shown as sent. */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\u2028\u2029]+/gu;
const MAX_MESSAGE_CHARS = 500;

/**
 * A provider message, bounded (in code points, so no surrogate is split), with control characters
 * turned into spaces and anything token-shaped masked: errors are logged, and a turn's failure
 * detail shows the message to the run's client.
 */
export const safeProviderMessage = (message: string): string => {
  let safe = message.replace(UNPRINTABLE, ' ');
  for (const shape of SECRET_SHAPES) safe = safe.replace(shape, '[redacted]');
  const points = [...safe];
  return points.length > MAX_MESSAGE_CHARS ? `${points.slice(0, MAX_MESSAGE_CHARS).join('')}…` : safe;
};

/**
 * A provider's `type`, `code` or `param` as it may be kept: identifier-shaped and short, else
 * dropped. These land in messages and error details verbatim, so free text (which can quote the
 * request's key or a prompt) is not let through them; the message field is where text goes, masked.
 */
const PROVIDER_IDENTIFIER = /^[A-Za-z0-9_.:[\]-]{1,100}$/;
export const providerIdentifier = (value: unknown): string | undefined =>
  typeof value === 'string' && PROVIDER_IDENTIFIER.test(value) ? value : undefined;

/** "Please try again in 11.054s" / "in 250ms" → milliseconds. */
export const parseTryAgainIn = (message: string | undefined): number | undefined => {
  const match = message === undefined ? null : /try again in\s+(\d+(?:\.\d+)?)\s*(ms|s)\b/i.exec(message);
  if (match === null) return undefined;
  const amount = Number(match[1]);
  return Math.ceil(match[2]?.toLowerCase() === 'ms' ? amount : amount * 1000);
};

/** `retry-after-ms`, then `retry-after` as delta-seconds or an HTTP-date (RFC 9110 §10.2.3). */
export const parseRetryAfter = (headers: Headers, now: number): number | undefined => {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Math.ceil(Number(ms));
  const value = headers.get('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
};

export interface FailureContext {
  readonly httpStatus?: number;
  readonly retryAfterMs?: number;
}

/** A provider-stated error (in-stream `error`, `response.failed`, or an HTTP error body) as a ModelError. */
export const classifyProviderError = (error: ProviderError, context: FailureContext = {}): ModelError => {
  const verdict =
    verdictFor(error) ??
    (context.httpStatus !== undefined
      ? verdictForStatus(context.httpStatus)
      : { kind: 'server' as const, retryable: false });
  const name = error.code ?? error.type;
  const stated = error.message === undefined ? 'no message' : safeProviderMessage(error.message);
  const retryAfterMs = context.retryAfterMs ?? parseTryAgainIn(error.message);
  const message =
    verdict.kind === 'unsupported_parameter'
      ? `the provider rejected the parameter ${error.param ?? '(unnamed)'}: ${stated}`
      : `provider error${name === undefined ? '' : ` ${name}`}: ${stated}`;
  return new ModelError(verdict.kind, message, {
    retryable: verdict.retryable,
    ...(error.type !== undefined ? { providerType: error.type } : {}),
    ...(error.code !== undefined ? { providerCode: error.code } : {}),
    ...(error.message !== undefined ? { providerMessage: stated } : {}),
    ...(error.param !== undefined ? { param: error.param } : {}),
    ...(context.httpStatus !== undefined ? { httpStatus: context.httpStatus } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });
};

const stringField = (record: Record<string, unknown>, key: string): string | undefined => {
  const value = record[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** Reads `{type, code, message, param}` from an error object; absent, empty or non-identifier names stay undefined. */
export const providerErrorFrom = (value: unknown): ProviderError => {
  const record = asRecord(value) ?? {};
  return {
    type: providerIdentifier(record.type),
    code: providerIdentifier(record.code),
    message: stringField(record, 'message'),
    param: providerIdentifier(record.param),
  };
};

const MAX_ERROR_BODY = 64 * 1024;

/** ECMAScript's last representable instant (±8.64e15 ms): a later `resets_at` is no time at all. */
const MAX_DATE_MS = 8.64e15;

/** `resets_at` (Unix seconds) as epoch ms, or undefined when it is not a time a Date can hold. */
const resetTime = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 && value * 1000 <= MAX_DATE_MS
    ? value * 1000
    : undefined;

/**
 * A non-2xx answer as a ModelError. Only the stated type/code/message/param are kept, never the raw
 * body. A 429 `usage_limit_reached` is a quota that lasts until `resets_at` (Unix seconds), so it
 * is not retried and its message says when it resets.
 */
export const classifyHttpFailure = async (response: Response, now: number): Promise<ModelError> => {
  const { text } = await readBoundedText(response, MAX_ERROR_BODY).catch(() => ({ text: '' }));
  let parsed: Record<string, unknown> | undefined;
  try {
    parsed = asRecord(JSON.parse(text));
  } catch {
    parsed = undefined;
  }
  const errorValue = parsed?.error;
  const stated: ProviderError =
    typeof errorValue === 'string'
      ? { code: providerIdentifier(errorValue), message: stringField(parsed ?? {}, 'message') }
      : providerErrorFrom(errorValue ?? parsed);
  const retryAfterMs = parseRetryAfter(response.headers, now);
  const status = response.status;

  if (status === 429 && (stated.type === 'usage_limit_reached' || stated.code === 'usage_limit_reached')) {
    const limit = asRecord(errorValue) ?? {};
    const resetsAt = resetTime(limit.resets_at) ?? (retryAfterMs !== undefined ? now + retryAfterMs : undefined);
    const plan = providerIdentifier(limit.plan_type);
    const when = resetsAt === undefined ? 'at an unstated time' : `at ${new Date(resetsAt).toISOString()}`;
    return new ModelError(
      'quota',
      `usage limit reached${plan === undefined ? '' : ` (plan ${plan})`}; it resets ${when}`,
      {
        retryable: false,
        providerType: 'usage_limit_reached',
        ...(stated.code !== undefined ? { providerCode: stated.code } : {}),
        ...(stated.message !== undefined ? { providerMessage: safeProviderMessage(stated.message) } : {}),
        httpStatus: status,
        ...(resetsAt !== undefined ? { resetsAt } : {}),
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      },
    );
  }
  if (status === 401) {
    // The credential itself is never part of the message; only that it was refused.
    return new ModelError('auth', 'the provider refused the credentials (HTTP 401)', {
      retryable: false,
      httpStatus: status,
      ...(stated.code !== undefined ? { providerCode: stated.code } : {}),
    });
  }
  const statusVerdict = verdictForStatus(status);
  const fromBody = verdictFor(stated);
  if (fromBody === undefined && stated.message === undefined) {
    return new ModelError(statusVerdict.kind, `the provider answered HTTP ${status}`, {
      retryable: statusVerdict.retryable,
      httpStatus: status,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  }
  const error = classifyProviderError(stated, {
    httpStatus: status,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });
  // A 5xx or 429 is transient whatever the body calls it (contract: "a 429 or 5xx status").
  if (!error.details.retryable && statusVerdict.retryable && fromBody === undefined) {
    return new ModelError(statusVerdict.kind, error.message, { ...error.details, retryable: true });
  }
  return error;
};

/** Anything thrown while talking to the provider, as a ModelError: aborts win, network faults retry. */
export const toModelError = (error: unknown, signal: AbortSignal): ModelError => {
  if (signal.aborted) {
    return error instanceof ModelError && error.kind === 'aborted'
      ? error
      : new ModelError('aborted', 'the model request was aborted', { retryable: false });
  }
  if (error instanceof ModelError) return error;
  const cause = error instanceof Error ? error.message : String(error);
  return new ModelError('transport', `could not reach the model provider: ${safeProviderMessage(cause)}`, {
    retryable: true,
  });
};

/** The Responses family's failure reading, as the shared model-list fetch takes it. */
export const responsesFailures = { classifyHttpFailure, toModelError } as const;
