import { checkHttpUrl } from './httpUrl.js';
import type { AddressPolicy } from './addressPolicy.js';

/**
 * Where an owner may point Helix with their API key. The server will send that key, and fetch, from
 * inside the deployment, so a base URL is a server-side request target: it is restricted to plain
 * http(s) origins plus path, and operators can pin the admitted hosts (SSRF guard, docs/api.md).
 * Where the host's addresses may be is the other half of the policy (`allowedCidrs`, checked by
 * src/net/ownerDestination.ts); this file is the part that needs no resolver.
 */
export interface BaseUrlPolicy extends AddressPolicy {
  readonly production: boolean;
  /** HELIX_MODEL_PROVIDER_ALLOWED_HOSTS (lower-case hostnames); undefined admits any host. */
  readonly allowedHosts: ReadonlySet<string> | undefined;
}

export type BaseUrlCheck =
  | { readonly ok: true; readonly url: string }
  | { readonly ok: false; readonly reason: string };

/** Lower-case hostname, IPv6 in brackets, port dropped: the form allowed-host entries are compared in. */
export const normalizeHostEntry = (entry: string): string => {
  const lower = entry.trim().toLowerCase();
  return lower.startsWith('[') ? lower.slice(0, lower.indexOf(']') + 1) : (lower.split(':', 1)[0] ?? lower);
};

/** Shape only: absolute http(s), no credentials, query or fragment. Returns the URL without a trailing slash. */
export const checkBaseUrlShape = (raw: string): BaseUrlCheck => {
  const checked = checkHttpUrl(raw);
  if (!checked.ok)
    return {
      ok: false,
      reason: checked.problem === 'credentials' ? 'must not carry credentials' : 'must be an absolute http(s) URL',
    };
  const { url } = checked;
  // `new URL` drops an empty `?` or `#`, so look at the text as well.
  if (url.search !== '' || url.hash !== '' || raw.includes('?') || raw.includes('#')) {
    return { ok: false, reason: 'must not carry a query or a fragment' };
  }
  return { ok: true, url: `${url.origin}${url.pathname}`.replace(/\/+$/, '') };
};

/** The owner-registration rule: shape, then the allow-list, then https in production unless allow-listed. */
export const checkBaseUrl = (raw: string, policy: BaseUrlPolicy): BaseUrlCheck => {
  const shape = checkBaseUrlShape(raw);
  if (!shape.ok) return shape;
  const host = new URL(shape.url).hostname.toLowerCase();
  const listed = policy.allowedHosts?.has(host) ?? false;
  if (policy.allowedHosts !== undefined && !listed)
    return { ok: false, reason: 'host is not in HELIX_MODEL_PROVIDER_ALLOWED_HOSTS' };
  if (policy.production && !listed && !shape.url.startsWith('https:')) {
    return {
      ok: false,
      reason: 'must use https in production unless its host is in HELIX_MODEL_PROVIDER_ALLOWED_HOSTS',
    };
  }
  return shape;
};
