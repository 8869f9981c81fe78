import type { FastifyRequest } from 'fastify';
import { HelixError } from '../../domain/errors.js';

/**
 * Production refuses plain HTTP, so a bearer is never accepted off an unencrypted hop (RFC 6750
 * §5.3; the MCP authorization spec requires HTTPS for every endpoint). `request.protocol` is
 * `https` for a TLS socket, or when a proxy trusted by TRUST_PROXY forwarded
 * `X-Forwarded-Proto: https`; Fastify ignores that header from any other peer.
 *
 * `/healthz` is exempt so load balancers and orchestrators can probe it over plain HTTP (on
 * loopback or the pod network): its answer is a constant and it reads no credential. The Host
 * allowlist still applies to it.
 */
export const assertHttps = (request: FastifyRequest): void => {
  if (request.protocol.toLowerCase() === 'https') return;
  if (request.routeOptions.url === '/healthz') return;
  throw new HelixError('https_required');
};
