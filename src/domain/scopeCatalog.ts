import {
  dataScopeOAuthScope,
  LOGICAL_DATA_SCOPES,
  OAUTH_SCOPES,
  type LogicalDataScope,
  type OAuthScope,
} from './scopes.js';

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
    // `research-library.search` is beyond the contract's row: see CAPABILITIES_BEYOND_CONTRACT.
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

/**
 * Capabilities a catalog entry admits beyond the ones the contract's catalog names by id
 * (docs/spec/helix-agent-api-v1.md "Logical data scopes"), each with the reason docs/auth.md gives.
 * The contract lets configuration neither invent capability ids nor raise a scope's read-only
 * ceiling; these are code-owned and read-only, so they widen neither.
 */
export const CAPABILITIES_BEYOND_CONTRACT: ReadonlyMap<string, string> = new Map([
  [
    'research-library.search',
    '`research-library.read_document` reads a document by its id, and searching the same library is the only read-only way a turn learns one',
  ],
]);

/**
 * The OAuth data scopes a client may be asked for here: those of the logical scopes whose sources
 * this deployment has configured (`available`, the capability registry's view that admission check 2
 * answers `scope_unavailable` from), in catalog order. A scope no source backs, such as
 * `theory_registry` in this build, can never require its OAuth scope, so it is not advertised.
 */
export const dataOAuthScopesOf = (available: ReadonlySet<string>): OAuthScope[] => [
  ...new Set([...SCOPE_CATALOG.values()].filter((e) => available.has(e.id)).map((e) => e.oauthScope)),
];

/**
 * RFC 9728 `scopes_supported` for the full documents: every OAuth scope, less the `helix.data.*`
 * scopes of logical scopes no configured source backs (dataOAuthScopesOf). A `helix.data.*` scope
 * admits nothing but its logical scope; `helix.rooms.read` also admits the room operations, so it stays.
 */
export const advertisedOAuthScopes = (available: ReadonlySet<string>): OAuthScope[] => {
  const backed = new Set<string>(dataOAuthScopesOf(available));
  return OAUTH_SCOPES.filter((scope) => !scope.startsWith('helix.data.') || backed.has(scope));
};
