import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { HelixError } from '../domain/errors.js';
import type { Capability } from './capability.js';
import { CapabilityRegistry } from './registry.js';

const fake = (id: string, scope: Capability['scope'] = 'research_library'): Capability => ({
  id,
  scope,
  family: 'research_library_evidence',
  kind: 'search',
  description: id,
  input: z.strictObject({ query: z.string() }),
  execute: async () => ({ artifacts: [], hits: [] }),
});
const context = { runId: 'run_x', turn: 1, signal: new AbortController().signal, now: Date.now };

describe('CapabilityRegistry', () => {
  it('refuses capability ids the code-owned catalog does not list for their scope', () => {
    expect(() => new CapabilityRegistry([fake('research-library.delete_everything')])).toThrow(
      /not in the code-owned catalog/,
    );
    expect(() => new CapabilityRegistry([fake('internet-search.search_web', 'research_library')])).toThrow();
  });

  it('calls only admitted capabilities; everything else is tool_not_found', async () => {
    const registry = new CapabilityRegistry([fake('research-library.search')]);
    await expect(registry.invoke('research-library.search', { query: 'x' }, new Set(), context)).rejects.toMatchObject({
      code: 'tool_not_found',
    });
    await expect(
      registry.invoke('repository.search', { query: 'x' }, new Set(['repository.search']), context),
    ).rejects.toBeInstanceOf(HelixError);
    await expect(
      registry.invoke('research-library.search', { query: 'x' }, new Set(['research-library.search']), context),
    ).resolves.toEqual({ artifacts: [], hits: [] });
    await expect(
      registry.invoke('research-library.search', { nope: 1 }, new Set(['research-library.search']), context),
    ).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('the menu is exactly the admitted, configured capabilities', () => {
    const registry = new CapabilityRegistry([fake('research-library.search'), fake('research-library.read_document')]);
    expect(registry.menu(new Set(['research-library.read_document', 'repository.search'])).map((c) => c.id)).toEqual([
      'research-library.read_document',
    ]);
    expect([...registry.availableScopes()]).toEqual(['research_library']);
  });
});
