/**
 * What a use case answers to its caller (REST route, MCP tool): the HTTP status, the body, and
 * whether the body is a stored idempotent response (Idempotency-Replayed, SLR-04).
 */
export interface ServiceResult<B = unknown> {
  readonly status: number;
  readonly body: B;
  readonly replayed: boolean;
}
