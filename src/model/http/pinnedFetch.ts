import { ATTR, inClientSpan } from '../../telemetry/instruments.js';
import { ModelError } from '../port.js';

/**
 * `fetch` that never follows a redirect: credential-bearing bodies, account headers and prompts
 * must not leave the origin they were addressed to (codex-subscription-protocol.md). A 3xx is an
 * error, not a hop.
 */
export const fetchWithoutRedirects = async (url: string, init: RequestInit): Promise<Response> =>
  inClientSpan(init.method ?? 'GET', new URL(url), {}, async (span) => {
    const response = await fetch(url, { ...init, redirect: 'manual' });
    span.setAttribute(ATTR.httpStatus, response.status);
    return refuseRedirect(url, response);
  });

const refuseRedirect = async (url: string, response: Response): Promise<Response> => {
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel().catch(() => undefined);
    throw new ModelError('protocol', `refused an HTTP ${response.status} redirect from ${new URL(url).origin}`, {
      retryable: false,
      httpStatus: response.status,
    });
  }
  return response;
};
