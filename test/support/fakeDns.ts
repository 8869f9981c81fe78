import type { HostResolver } from '../../src/net/resolveDestination.js';

/**
 * A resolver that answers from a table (the sandbox has no DNS, and tests must choose what a name
 * resolves to). A function entry is asked anew at each lookup, for names whose answer changes.
 * Unknown names fail as getaddrinfo does.
 */
export const tableResolver =
  (table: Record<string, readonly string[] | (() => readonly string[])>): HostResolver =>
  async (hostname) => {
    const entry = table[hostname];
    if (entry === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return typeof entry === 'function' ? entry() : entry;
  };

/** Public addresses (RFC 5737 documentation ranges would be refused): never connected to in tests. */
export const PUBLIC_DNS = {
  'api.openai.com': ['162.159.140.245'],
  'api.example.com': ['93.184.215.14'],
} as const;
