import { dataScopeOAuthScope, LOGICAL_DATA_SCOPES, type LogicalDataScope, type OAuthScope } from './scopes.js';

/** A code-owned logical data scope: configuration may enable it but never widen it. */
export interface ScopeCatalogEntry {
  readonly id: LogicalDataScope;
  readonly oauthScope: OAuthScope;
  readonly requiredFamily: string;
  readonly capabilities: readonly string[];
}

const entry = (id: LogicalDataScope, requiredFamily: string, capabilities: readonly string[]): ScopeCatalogEntry => ({
  id,
  oauthScope: dataScopeOAuthScope(id),
  requiredFamily,
  capabilities,
});

export const SCOPE_CATALOG: ReadonlyMap<string, ScopeCatalogEntry> = new Map(
  [
    entry('public_web', 'internet_search_evidence', ['internet-search.search_web']),
    entry('scholarly_research', 'scholarly_evidence', [
      'scholarly.lookup_papers',
      'scholarly.fetch_full_text',
      'scholarly.extract_numbers',
    ]),
    entry('research_library', 'research_library_evidence', [
      'research-library.search',
      'research-library.read_document',
    ]),
    entry('repository_evidence', 'repository_evidence', ['repository.search', 'repository.read_file']),
    entry('theory_registry', 'theory_registry_evidence', ['theory-registry.reflect']),
    // BRE-01, PRB-01 (docs/spec/shared-live-room-requirements.md §9, §10): the run's exact active room binding.
    entry('bound_room_evidence', 'shared_live_room_evidence', ['room.evidence.read_bound']),
    entry('bound_room_environment_probe', 'shared_live_room_environment_probe', [
      'com.casimirbot.minecraft.inventory.check',
    ]),
  ].map((e) => [e.id, e] as const),
);

export const isCatalogScope = (id: string): id is LogicalDataScope =>
  (LOGICAL_DATA_SCOPES as readonly string[]).includes(id);
