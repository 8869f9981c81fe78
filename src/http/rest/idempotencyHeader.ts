import type { FastifyRequest } from 'fastify';

/** The `Idempotency-Key` header as sent, or undefined; the use case checks its length (8-200) and refuses a missing one. */
export const idempotencyKeyOf = (request: FastifyRequest): string | undefined => {
  const header = request.headers['idempotency-key'];
  return typeof header === 'string' ? header : undefined;
};
