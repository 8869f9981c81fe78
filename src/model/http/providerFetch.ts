import { type HttpFetch, RedirectRefusedError, refusingRedirects } from '../../net/fetchWithoutRedirects.js';
import { ModelError } from '../port.js';

/** The fetch a provider client uses (the global fetch's shape). */
export type ProviderFetch = HttpFetch;

/**
 * `send` as a provider client sends: never following a redirect (src/net/fetchWithoutRedirects.ts),
 * a refused one told in the model's vocabulary, ModelError('protocol') carrying the status, not
 * retried: the same server would only redirect again.
 */
export const providerFetch = (send: HttpFetch): ProviderFetch => {
  const refusing = refusingRedirects(send);
  return async (url, init) => {
    try {
      return await refusing(url, init);
    } catch (error) {
      if (!(error instanceof RedirectRefusedError)) throw error;
      throw new ModelError('protocol', error.message, { retryable: false, httpStatus: error.status });
    }
  };
};

/** The global fetch, refusing redirects: every provider's default. */
export const defaultProviderFetch: ProviderFetch = providerFetch((url, init) => fetch(url, init));
