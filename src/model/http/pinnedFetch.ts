import { ATTR, inClientSpan } from '../../telemetry/instruments.js';
import { ModelError } from '../port.js';

/** The fetch a provider client uses (the global fetch's shape). */
export type ProviderFetch = (url: string, init: RequestInit) => Promise<Response>;

/**
 * `send` that never follows a redirect: credential-bearing bodies, account headers and prompts
 * must not leave the origin they were addressed to (docs/spec/codex-subscription-protocol.md). A 3xx is an
 * error, not a hop.
 */
export const refusingRedirects =
  (send: ProviderFetch): ProviderFetch =>
  (url, init) =>
    inClientSpan(init.method ?? 'GET', new URL(url), {}, async (span) => {
      const response = await send(url, { ...init, redirect: 'manual' });
      span.setAttribute(ATTR.httpStatus, response.status);
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel().catch(() => undefined);
        throw new ModelError('protocol', `refused an HTTP ${response.status} redirect from ${new URL(url).origin}`, {
          retryable: false,
          httpStatus: response.status,
        });
      }
      return response;
    });

/** The global fetch, refusing redirects. */
export const fetchWithoutRedirects: ProviderFetch = refusingRedirects((url, init) => fetch(url, init));
