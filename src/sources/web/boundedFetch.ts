import { readBoundedText } from '../../net/boundedBody.js';
import { fetchWithoutRedirects, RedirectRefusedError } from '../../net/fetchWithoutRedirects.js';
import { ATTR } from '../../telemetry/instruments.js';
import { type SourceFailure, SourceUnavailableError } from './sourceUnavailableError.js';

export const DEFAULT_SOURCE_TIMEOUT_MS = 10_000;
/** Search and bibliographic answers are a few kilobytes; anything near this is not an answer. */
export const DEFAULT_MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

export type ExpectedBody = 'json' | 'xml';

export interface BoundedFetchRequest {
  readonly capabilityId: string;
  readonly url: URL;
  readonly expect: ExpectedBody;
  readonly timeoutMs: number;
  /** The turn's signal: cancelling the turn cancels the request. */
  readonly signal: AbortSignal;
  readonly maxBytes?: number;
}

const ACCEPT: { readonly [E in ExpectedBody]: string } = {
  json: 'application/json',
  xml: 'application/atom+xml, application/xml;q=0.9, text/xml;q=0.8',
};

const isExpectedMediaType = (contentType: string | null, expect: ExpectedBody): boolean => {
  const mime = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return expect === 'json'
    ? mime === 'application/json' || mime.endsWith('+json')
    : mime === 'application/xml' || mime === 'text/xml' || mime.endsWith('+xml');
};

/**
 * GETs a configured endpoint under the source network rules: a hard timeout joined with the
 * turn's signal, no credentials or caller headers (only Accept and User-Agent are ever sent, so an
 * incoming Authorization cannot leak to a third party), no redirects (src/net/fetchWithoutRedirects.ts:
 * a redirect could move the request to a host nobody configured), a size cap and a media-type check.
 * The request is one client span, tagged with the capability id.
 *
 * Cancellation of the turn is re-thrown as the signal's reason, not as a source failure.
 */
export const fetchBoundedText = async (request: BoundedFetchRequest): Promise<string> => {
  request.signal.throwIfAborted();
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = AbortSignal.any([request.signal, timeout]);
  const maxBytes = request.maxBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const fail = (failure: SourceFailure, status?: number): SourceUnavailableError =>
    new SourceUnavailableError(request.capabilityId, failure, status);
  try {
    const response = await fetchWithoutRedirects(
      request.url.href,
      {
        method: 'GET',
        headers: { accept: ACCEPT[request.expect], 'user-agent': 'helix-sources/0.1' },
        credentials: 'omit',
        signal,
      },
      { [ATTR.capabilityId]: request.capabilityId },
    );
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw fail('http_status', response.status);
    }
    if (!isExpectedMediaType(response.headers.get('content-type'), request.expect)) {
      await response.body?.cancel().catch(() => undefined);
      throw fail('unexpected_content_type');
    }
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (Number.isFinite(declared) && declared > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw fail('too_large');
    }
    const body = await readBoundedText(response, maxBytes);
    if (!body.complete) throw fail('too_large');
    return body.text;
  } catch (error) {
    if (error instanceof SourceUnavailableError) throw error;
    request.signal.throwIfAborted();
    if (timeout.aborted) throw fail('timeout');
    throw fail(error instanceof RedirectRefusedError ? 'redirect' : 'network');
  }
};

export const fetchBoundedJson = async (request: Omit<BoundedFetchRequest, 'expect'>): Promise<unknown> => {
  const text = await fetchBoundedText({ ...request, expect: 'json' });
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new SourceUnavailableError(request.capabilityId, 'malformed_response');
  }
};
