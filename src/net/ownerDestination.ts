import { resolveDestination, type Destination, type HostResolver, type PinnedAddress } from './resolveDestination.js';
import { checkBaseUrl, type BaseUrlPolicy } from './baseUrlPolicy.js';

export type OwnerDestinationCheck =
  | { readonly ok: true; readonly url: string; readonly addresses: readonly PinnedAddress[] }
  /** `shape`: the URL or its host name is refused; `address`: where the host is (or resolves) is refused. */
  | { readonly ok: false; readonly refusal: 'shape' | 'address'; readonly reason: string };

const CIDRS = 'HELIX_MODEL_PROVIDER_ALLOWED_CIDRS';

const addressReason = (destination: Extract<Destination, { ok: false }>): string =>
  destination.refusal === 'refused_address'
    ? `names a ${destination.addressClass.replace('_', '-')} address, which owners' providers may not use unless the operator admits its range in ${CIDRS}`
    : `host does not resolve to an address owners' providers may use (a public address, or one in ${CIDRS})`;

/**
 * The one check of where an owner's provider traffic may go, run when the owner registers a
 * base URL and again before every request to it: the URL's shape and host name
 * (src/net/baseUrlPolicy.ts), then every address the host names or resolves to
 * (src/net/resolveDestination.ts). The admitted addresses are what a request is pinned to.
 */
export const checkOwnerDestination = async (
  raw: string,
  policy: BaseUrlPolicy,
  resolve: HostResolver,
): Promise<OwnerDestinationCheck> => {
  const base = checkBaseUrl(raw, policy);
  if (!base.ok) return { ok: false, refusal: 'shape', reason: base.reason };
  const destination = await resolveDestination(new URL(base.url).hostname, policy, resolve);
  if (!destination.ok) return { ok: false, refusal: 'address', reason: addressReason(destination) };
  return { ok: true, url: base.url, addresses: destination.addresses };
};
