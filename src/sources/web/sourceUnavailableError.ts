/**
 * Why an external source could not serve a capability call. Stable strings so callers can
 * `switch` on them; none of them carries a URL, because configured endpoints may hold secrets.
 */
export const SOURCE_FAILURES = [
  'timeout',
  'network',
  'redirect',
  'http_status',
  'unexpected_content_type',
  'too_large',
  'malformed_response',
  'root_unavailable',
] as const;
export type SourceFailure = (typeof SOURCE_FAILURES)[number];

/**
 * A configured source (search engine, bibliographic API, repository root) failed. This is not a
 * HelixError: it is raised below the API boundary, and the turn executor decides whether the turn
 * fails or carries on with the other sources.
 */
export class SourceUnavailableError extends Error {
  override readonly name = 'SourceUnavailableError';
  readonly code = 'source_unavailable' as const;
  constructor(
    readonly capabilityId: string,
    readonly failure: SourceFailure,
    /** HTTP status when `failure` is 'http_status'. */
    readonly status?: number,
  ) {
    super(`Source for ${capabilityId} is unavailable (${failure}${status === undefined ? '' : ` ${status}`}).`);
  }
}

export const isSourceUnavailableError = (value: unknown): value is SourceUnavailableError =>
  value instanceof SourceUnavailableError;
