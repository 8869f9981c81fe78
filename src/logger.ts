import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Structured logs that never hold credentials: the usual carriers are redacted by path, and the
 * HTTP layer logs paths without query strings and principals only by credential id.
 */
export const REDACT_PATHS = [
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'headers.cookie',
  '*.headers.cookie',
  'token',
  '*.token',
  'apiKey',
  '*.apiKey',
  'key',
  'secret',
  '*.secret',
];

export const createLogger = (level: string, destination?: DestinationStream): Logger =>
  pino({ level, base: { service: 'helix' }, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, destination);
