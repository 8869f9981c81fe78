import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { errorBody } from '../../api/errorBody.js';
import { HelixError } from '../../domain/errors.js';
import { pickRequestId } from '../requestId.js';

/**
 * Errors Node's HTTP parser raises before any route exists (a request not received within
 * HELIX_HTTP_REQUEST_TIMEOUT_MS, oversized headers, malformed HTTP) are answered like every other
 * error: the error vocabulary, a request id, no-store. Then the connection is closed, since the
 * parser's state is unknown. Nothing of the request is echoed.
 *
 * Every such answer says `Idempotency-Replayed: false` (SLR-04: mutation responses carry it). The
 * parser often cannot name the method (headers cut off or too large), and whatever the request was,
 * nothing was replayed: the header is true of every answer given here.
 */
export const answerClientError = (err: Error & { code?: string }, socket: Socket): void => {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const error = new HelixError(
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? 'request_timeout'
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? 'request_header_too_large'
        : 'invalid_request',
  );
  const body = JSON.stringify(errorBody(error));
  if (socket.writable) {
    socket.write(
      [
        `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Cache-Control: no-store',
        'Pragma: no-cache',
        `X-Request-Id: ${pickRequestId(undefined)}`,
        'Idempotency-Replayed: false',
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  }
  socket.destroy();
};
