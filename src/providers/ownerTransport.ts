import { providerFetch } from '../model/http/providerFetch.js';
import { ModelError } from '../model/port.js';
import type { HttpTransport } from './providerClients.js';
import { collapsingUnreachable, type UnreachableReport } from '../model/unreachableFailures.js';
import { createPinnedFetch, type PinnedFetch } from '../net/pinnedConnectionFetch.js';
import type { HostResolver } from '../net/resolveDestination.js';
import type { BaseUrlPolicy } from '../net/baseUrlPolicy.js';
import { checkOwnerDestination } from '../net/ownerDestination.js';

export interface OwnerTransportDeps {
  readonly policy: BaseUrlPolicy;
  readonly resolve: HostResolver;
  /** What really failed, for the operator's debug log; the owner only ever sees `unreachable`. */
  readonly report: UnreachableReport;
  readonly pinnedFetch?: PinnedFetch;
}

/**
 * How requests to an owner-registered provider go out: each one checks the destination again
 * (the policy may have changed since registration, and the name may now resolve elsewhere),
 * connects only to the addresses that check admitted, refuses redirects, and reports every
 * peer-caused failure as `unreachable` (src/model/unreachableFailures.ts explains why).
 */
export const ownerTransport = (deps: OwnerTransportDeps): HttpTransport => {
  const send = deps.pinnedFetch ?? createPinnedFetch();
  return {
    fetchImpl: providerFetch(async (url, init) => {
      const destination = await checkOwnerDestination(url, deps.policy, deps.resolve);
      if (!destination.ok)
        throw new ModelError('transport', `the outbound policy refused the destination: ${destination.reason}`, {
          retryable: true,
        });
      return send(url, init, destination.addresses);
    }),
    failures: (reader) => collapsingUnreachable(reader, deps.report),
  };
};
