import type { FastifyRequest } from 'fastify';
import { HelixError } from '../domain/errors.js';

export interface HostPolicy {
  /** Lower-case hostnames (no port) the server answers to. */
  readonly hosts: ReadonlySet<string>;
  /** Exact origins (scheme://host[:port]) a browser may call from. */
  readonly origins: ReadonlySet<string>;
  /** Outside production, any loopback origin (any port) is also admitted. */
  readonly allowLoopbackOrigins: boolean;
}

export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

const hostnameOf = (hostHeader: string): string => {
  const lower = hostHeader.toLowerCase();
  if (lower.startsWith('[')) return lower.slice(0, lower.indexOf(']') + 1);
  return lower.split(':', 1)[0] ?? '';
};

const isLoopbackOrigin = (origin: string): boolean => {
  try {
    const url = new URL(origin);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      (LOOPBACK_HOSTS as readonly string[]).includes(url.hostname)
    );
  } catch {
    return false;
  }
};

/**
 * DNS-rebinding protection and browser-origin control, before any handler runs: the Host must be
 * admitted (403 otherwise) and a supplied Origin must be admitted too (403 otherwise).
 */
export const assertHostAndOrigin = (request: FastifyRequest, policy: HostPolicy): void => {
  const host = request.headers.host;
  if (typeof host !== 'string' || !policy.hosts.has(hostnameOf(host))) throw new HelixError('forbidden_host');
  const origin = request.headers.origin;
  if (origin === undefined) return;
  if (
    typeof origin === 'string' &&
    (policy.origins.has(origin) || (policy.allowLoopbackOrigins && isLoopbackOrigin(origin)))
  )
    return;
  throw new HelixError('forbidden_origin');
};
