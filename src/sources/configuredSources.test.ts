import { describe, expect, it } from 'vitest';
import { SOURCELESS_SCOPES } from '../config.js';
import { SCOPE_CATALOG } from '../domain/scopeCatalog.js';
import type { Store } from '../store/port.js';
import { configuredCapabilities } from './configuredSources.js';

describe('configured sources', () => {
  it('with every source configured, only the scopes start-up refuses as sourceless are unavailable', () => {
    // Constructors do no I/O, so an empty store and policy reader are never touched here.
    const capabilities = configuredCapabilities({} as Store, {} as never, {
      repositoryRoots: [process.cwd()],
      boundRoom: { maxAgeMs: 60_000, adapterFixtures: false },
      searchUrl: 'http://127.0.0.1:9/search',
      scholarly: { openAlexUrl: 'http://127.0.0.1:9/openalex' },
    });
    const available: ReadonlySet<string> = new Set(capabilities.map((c) => c.scope));
    expect([...SCOPE_CATALOG.keys()].filter((id) => !available.has(id))).toEqual([...SOURCELESS_SCOPES]);
  });
});
