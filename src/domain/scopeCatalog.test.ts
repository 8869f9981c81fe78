import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  advertisedOAuthScopes,
  CAPABILITIES_BEYOND_CONTRACT,
  dataOAuthScopesOf,
  SCOPE_CATALOG,
} from './scopeCatalog.js';
import { OAUTH_SCOPES } from './scopes.js';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/**
 * The contract's catalog rows (docs/spec/helix-agent-api-v1.md "Logical data scopes") whose
 * admitted-capabilities column names exact ids: `scope id` → those ids. Rows that describe their
 * tools in words ("paper lookup, …") pin no id, so they are left out.
 */
const contractRows = (): Map<string, string[]> => {
  const section = read('docs/spec/helix-agent-api-v1.md').split('## Logical data scopes')[1]?.split('\n## ')[0] ?? '';
  const rows = new Map<string, string[]>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const id = /^`([a-z_]+)`$/.exec(cells[1] ?? '')?.[1];
    const capabilities = cells[4] ?? '';
    if (id === undefined || !/^`[^`]+`$/.test(capabilities.split(' for ')[0] ?? '')) continue;
    rows.set(
      id,
      [...capabilities.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? ''),
    );
  }
  return rows;
};

describe('the code-owned catalog against the contract (issue 27 item 17)', () => {
  it('reads the contract rows that name exact capability ids', () => {
    expect(contractRows().get('research_library')).toEqual(['research-library.read_document']);
    expect(contractRows().get('public_web')).toEqual(['internet-search.search_web']);
  });

  it('admits exactly what the contract names, plus the extensions it gives a reason for', () => {
    for (const [id, named] of contractRows()) {
      const admitted = SCOPE_CATALOG.get(id)?.capabilities ?? [];
      const beyond = admitted.filter((c) => !named.includes(c));
      expect(
        named.filter((c) => !admitted.includes(c)),
        `${id} misses a contract capability`,
      ).toEqual([]);
      expect(
        beyond.filter((c) => !CAPABILITIES_BEYOND_CONTRACT.has(c)),
        `${id} admits an undocumented one`,
      ).toEqual([]);
    }
  });

  it('keeps `research-library.search` under research_library, and docs/auth.md says why, citing the contract', () => {
    expect(SCOPE_CATALOG.get('research_library')?.capabilities).toEqual([
      'research-library.search',
      'research-library.read_document',
    ]);
    expect(CAPABILITIES_BEYOND_CONTRACT.get('research-library.search')).toMatch(/read_document/);
    const auth = read('docs/auth.md');
    const sentence = auth.split('\n').find((line) => line.includes('`research-library.search`') && /beyond/.test(line));
    expect(sentence).toBeDefined();
    expect(auth).toMatch(/spec\/helix-agent-api-v1\.md#logical-data-scopes/);
  });
});

describe('what is advertised follows what sources back', () => {
  const every = new Set([...SCOPE_CATALOG.keys()].filter((id) => id !== 'theory_registry'));

  it('drops exactly the data scopes of unavailable logical scopes, never a room or run scope', () => {
    expect(advertisedOAuthScopes(every)).toEqual(OAUTH_SCOPES.filter((s) => s !== 'helix.data.theory_registry.read'));
    const libraryOnly = new Set(['research_library', 'bound_room_evidence', 'bound_room_environment_probe']);
    expect(advertisedOAuthScopes(libraryOnly).filter((s) => s.startsWith('helix.data.'))).toEqual([
      'helix.data.research_library.read',
    ]);
    expect(advertisedOAuthScopes(new Set())).toContain('helix.rooms.read');
    expect(dataOAuthScopesOf(libraryOnly)).toEqual(['helix.data.research_library.read', 'helix.rooms.read']);
  });
});
