import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/**
 * The one `request` line per answered request. Its fields are fixed, and Helix fills each one: the
 * method, the path without its query (a query string could carry a misplaced token), the status,
 * the duration and the credential's non-secret id. None of them is a redaction target (src/logger.ts
 * redacts by field name), so the line goes through a child logger without redaction: the same JSON,
 * without running every redaction path over five known-safe fields on every request, which cost
 * more than formatting the line itself (issue 19's profiles). Anything else a request logs still
 * goes through `request.log`, redacted.
 */
export const registerRequestLog = (app: FastifyInstance, logger: FastifyBaseLogger): void => {
  const lines = logger.child({}, { redact: { paths: [] } });
  app.addHook('onResponse', (request, reply, done) => {
    lines.info(
      {
        request_id: request.id,
        method: request.method,
        path: request.url.split('?', 1)[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
        principal: request.principalId,
      },
      'request',
    );
    done();
  });
};
