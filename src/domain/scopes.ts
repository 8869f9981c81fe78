/**
 * The one scope registry: the contract's OAuth scopes, the ADR-0004 vocabulary carried by `hlx_`
 * keys, and the single documented mapping between them (docs/auth.md).
 *
 * Authorization is always decided in OAuth terms: each operation requires OAuth scopes, and a
 * principal's granted scopes are first expanded into the OAuth scopes they imply.
 */
import { HelixError } from './errors.js';

export const LOGICAL_DATA_SCOPES = [
  'public_web',
  'scholarly_research',
  'research_library',
  'repository_evidence',
  'theory_registry',
  'bound_room_evidence',
  'bound_room_environment_probe',
] as const;
export type LogicalDataScope = (typeof LOGICAL_DATA_SCOPES)[number];

/**
 * The room lanes read what a room's source observed, so the room read scope entitles them
 * (docs/spec/shared-live-room-requirements.md BRE-01, PRB-01); no `helix.data.*` scope exists for them.
 */
const ROOM_DATA_SCOPES: ReadonlySet<LogicalDataScope> = new Set([
  'bound_room_evidence',
  'bound_room_environment_probe',
]);

export const dataScopeOAuthScope = (scope: LogicalDataScope): OAuthScope =>
  ROOM_DATA_SCOPES.has(scope) ? 'helix.rooms.read' : (`helix.data.${scope}.read` as OAuthScope);

export const OAUTH_SCOPES = [
  'helix.agent_runs.read',
  'helix.agent_runs.write',
  'helix.rooms.read',
  'helix.rooms.manage',
  'helix.room_sources.manage',
  'helix.environment_actions.read',
  'helix.environment_actions.write',
  'helix.data.public_web.read',
  'helix.data.scholarly_research.read',
  'helix.data.research_library.read',
  'helix.data.repository_evidence.read',
  'helix.data.theory_registry.read',
  'helix.model_providers.read',
  'helix.model_providers.write',
] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];

/** ADR-0004 v1 set plus the two provider scopes the implementation added (docs/spec/adr-0004-scoped-api-keys.md "Known drift"). */
export const ADR_SCOPES = [
  'agent.read',
  'agent.write',
  'run.read',
  'run.create',
  'run.cancel',
  'stream.subscribe',
  'memory.read',
  'memory.write',
  'tool.invoke',
  'subject.read',
  'subject.erase',
  'subject.export',
  'provider.read',
  'provider.write',
] as const;
export type AdrScope = (typeof ADR_SCOPES)[number];

/** ADR-0004's legacy wildcard: grants every scope but the operator-only subject operations (OperatorGrant). */
export const ADR_WILDCARD = 'aep:*';

export type GrantableScope = OAuthScope | AdrScope | typeof ADR_WILDCARD;

/**
 * ADR-0004 scope -> OAuth scopes it grants. `run.create` grants start and continue; `run.cancel`
 * grants only cancel, so it is modelled as an operation grant below rather than as the whole
 * write scope. `provider.read`/`provider.write` are the model-provider scopes under their ADR-0004
 * names. Scopes with no Helix meaning yet (memory, tool) grant nothing; the subject scopes grant
 * only their own operator-only operation (OperatorGrant below), never an OAuth scope.
 */
const ADR_TO_OAUTH: { readonly [S in AdrScope]: readonly OAuthScope[] } = {
  'agent.read': ['helix.agent_runs.read'],
  'agent.write': ['helix.agent_runs.write'],
  'run.read': ['helix.agent_runs.read'],
  'run.create': [],
  'run.cancel': [],
  'stream.subscribe': [],
  'memory.read': [],
  'memory.write': [],
  'tool.invoke': [],
  'subject.read': [],
  'subject.erase': [],
  'subject.export': [],
  'provider.read': ['helix.model_providers.read'],
  'provider.write': ['helix.model_providers.write'],
};

export const RUN_OPERATIONS = [
  'run.start',
  'run.continue',
  'run.cancel',
  'run.inspect',
  'run.events',
  'run.evidence',
  'run.events_stream',
  'run.list',
] as const;
export type RunOperation = (typeof RUN_OPERATIONS)[number];

/** The model-provider registration endpoints (src/http/rest/providerRoutes.ts). */
export const MODEL_PROVIDER_OPERATIONS = [
  'model_provider.register',
  'model_provider.list',
  'model_provider.inspect',
  'model_provider.delete',
] as const;
export type ModelProviderOperation = (typeof MODEL_PROVIDER_OPERATIONS)[number];

/** ADR-0004 subject access (src/service/subjects/): operator-only, see OperatorGrant. */
export const SUBJECT_OPERATIONS = ['subject.read', 'subject.export', 'subject.erase'] as const;
export type SubjectOperation = (typeof SUBJECT_OPERATIONS)[number];

/**
 * The Shared Live Room facade (docs/spec/shared-live-room-requirements.md §4, §11; use cases in
 * src/service/rooms/). SLR-15: no ADR-0004 scope maps onto the room scopes, so only OAuth admits them.
 */
export const ROOM_OPERATIONS = [
  'room.list',
  'room.inspect',
  'room.create',
  'room.bind_run',
  'room.claim_chat',
  'room.unbind_run',
  'room.unbind_chat',
  'room.command',
  'room.source_list',
  'room.source_create',
  'environment.device_check',
  'environment.subject_list',
  'environment.subject_select',
  'minecraft.player_action',
  'minecraft.workflow_status',
  'minecraft.workflow_control',
] as const;
/**
 * The agent-task protocol's tools (docs/agent-tasks.md, ATP-14): MCP only, the run owner's, so the
 * run scopes admit them. Working a turn's task reads and cites sources on the run's behalf: write.
 */
export const AGENT_TASK_OPERATIONS = [
  'agent_task.list',
  'agent_task.claim',
  'agent_task.call_tool',
  'agent_task.read_asset',
  'agent_task.complete',
  'agent_task.release',
] as const;
export type AgentTaskOperation = (typeof AGENT_TASK_OPERATIONS)[number];

/** The embodiment's and the agent-task protocol's operations are MCP tools only (MC-01..MC-05, ATP-14): no REST route, so no OpenAPI entry. */
export const MCP_ONLY_OPERATIONS: readonly (RoomOperation | AgentTaskOperation)[] = [
  'environment.subject_list',
  'environment.subject_select',
  'minecraft.player_action',
  'minecraft.workflow_status',
  'minecraft.workflow_control',
  ...AGENT_TASK_OPERATIONS,
];
export type RoomOperation = (typeof ROOM_OPERATIONS)[number];

export type Operation = RunOperation | ModelProviderOperation | SubjectOperation | RoomOperation | AgentTaskOperation;

/** At least one scope: an operation nobody could be granted would be a typo, not a rule. */
export type ScopeList = readonly [OAuthScope, ...OAuthScope[]];

interface OperationGrant {
  /**
   * Every OAuth scope the contract requires, all of them at once (PRE-05, SLR-13: binding a run to
   * a room needs `helix.rooms.manage` and `helix.agent_runs.write`); `insufficient_scope` names the missing ones.
   */
  readonly oauth: ScopeList;
  /** ADR-0004 scopes that also admit exactly this operation. */
  readonly adr: readonly AdrScope[];
}

/**
 * An operator-only operation: admitted by its one explicit ADR-0004 scope and nothing else. No
 * OAuth scope maps to it and, deliberately unlike ADR-0004's note, the `aep:*` wildcard does not
 * grant it either: a key minted for "everything" must not be able to erase a subject (fail closed).
 */
interface OperatorGrant {
  readonly oauth: null;
  readonly adr: readonly [AdrScope];
}

export const OPERATION_SCOPES: {
  readonly [O in Operation]: O extends SubjectOperation ? OperatorGrant : OperationGrant;
} = {
  'run.start': { oauth: ['helix.agent_runs.write'], adr: ['agent.write', 'run.create'] },
  'run.continue': { oauth: ['helix.agent_runs.write'], adr: ['agent.write', 'run.create'] },
  'run.cancel': { oauth: ['helix.agent_runs.write'], adr: ['agent.write', 'run.cancel'] },
  'run.inspect': { oauth: ['helix.agent_runs.read'], adr: ['agent.read', 'run.read'] },
  'run.events': { oauth: ['helix.agent_runs.read'], adr: ['agent.read', 'run.read', 'stream.subscribe'] },
  'run.evidence': { oauth: ['helix.agent_runs.read'], adr: ['agent.read', 'run.read'] },
  'run.events_stream': { oauth: ['helix.agent_runs.read'], adr: ['agent.read', 'run.read', 'stream.subscribe'] },
  'run.list': { oauth: ['helix.agent_runs.read'], adr: ['agent.read', 'run.read'] },
  // Write does not imply read, as for runs: a registering key may be unable to list.
  'model_provider.register': { oauth: ['helix.model_providers.write'], adr: ['provider.write'] },
  'model_provider.delete': { oauth: ['helix.model_providers.write'], adr: ['provider.write'] },
  'model_provider.list': { oauth: ['helix.model_providers.read'], adr: ['provider.read'] },
  'model_provider.inspect': { oauth: ['helix.model_providers.read'], adr: ['provider.read'] },
  'subject.read': { oauth: null, adr: ['subject.read'] },
  'subject.export': { oauth: null, adr: ['subject.export'] },
  'subject.erase': { oauth: null, adr: ['subject.erase'] },
  // Shared Live Room (RREST-01..10, MRT-01..10): the dual-scope rows are PRE-05's multi-scope operations.
  'room.list': { oauth: ['helix.rooms.read'], adr: [] },
  'room.inspect': { oauth: ['helix.rooms.read'], adr: [] },
  'room.create': { oauth: ['helix.rooms.manage'], adr: [] },
  'room.bind_run': { oauth: ['helix.rooms.manage', 'helix.agent_runs.write'], adr: [] },
  'room.claim_chat': { oauth: ['helix.rooms.manage', 'helix.agent_runs.write'], adr: [] },
  'room.unbind_run': { oauth: ['helix.rooms.manage', 'helix.agent_runs.write'], adr: [] },
  'room.unbind_chat': { oauth: ['helix.rooms.manage', 'helix.agent_runs.write'], adr: [] },
  'room.command': { oauth: ['helix.rooms.manage'], adr: [] },
  // RREST-08, RREST-09, MRT-08, MRT-09, D-01: sources have their own scope, held apart from room management.
  'room.source_list': { oauth: ['helix.room_sources.manage'], adr: [] },
  'room.source_create': { oauth: ['helix.room_sources.manage'], adr: [] },
  // DC-01, DC-02: the Device Check needs only the read-only room scope.
  'environment.device_check': { oauth: ['helix.rooms.read'], adr: [] },
  // MC-01..MC-05, MC-14: acting needs the explicitly delegated environment action scopes.
  'environment.subject_list': { oauth: ['helix.rooms.read'], adr: [] },
  'environment.subject_select': { oauth: ['helix.rooms.read', 'helix.environment_actions.write'], adr: [] },
  'minecraft.player_action': { oauth: ['helix.rooms.read', 'helix.environment_actions.write'], adr: [] },
  'minecraft.workflow_status': { oauth: ['helix.rooms.read', 'helix.environment_actions.read'], adr: [] },
  'minecraft.workflow_control': { oauth: ['helix.rooms.read', 'helix.environment_actions.write'], adr: [] },
  'agent_task.list': { oauth: ['helix.agent_runs.read'], adr: ['agent.read', 'run.read'] },
  'agent_task.claim': { oauth: ['helix.agent_runs.write'], adr: ['agent.write'] },
  'agent_task.call_tool': { oauth: ['helix.agent_runs.write'], adr: ['agent.write'] },
  'agent_task.read_asset': { oauth: ['helix.agent_runs.write'], adr: ['agent.write'] },
  'agent_task.complete': { oauth: ['helix.agent_runs.write'], adr: ['agent.write'] },
  'agent_task.release': { oauth: ['helix.agent_runs.write'], adr: ['agent.write'] },
};

/** The scopes an operation requires, as a bearer security requirement lists them (OAuth, else its ADR-0004 scope). */
export const requiredScopesOf = (operation: Operation): readonly [string, ...string[]] => {
  const grant: OperationGrant | OperatorGrant = OPERATION_SCOPES[operation];
  return grant.oauth ?? grant.adr;
};

/** The scope an `insufficient_scope` refusal names for an operation: RFC 6750 §3 space-separates a set. */
export const requiredScopeOf = (operation: Operation): string => requiredScopesOf(operation).join(' ');

/** Every scope-checked use case starts here (RFC 6750 §3.1); the refusal names every missing scope (SLR-13). */
export const requireScopes = (scopes: ScopeSet, operation: Operation): void => {
  const missing = scopes.missingFor(operation);
  if (missing.length > 0) throw new HelixError('insufficient_scope', { scope: missing.join(' ') });
};

const GRANTABLE: ReadonlySet<string> = new Set<string>([...OAUTH_SCOPES, ...ADR_SCOPES, ADR_WILDCARD]);

export const isGrantableScope = (value: string): value is GrantableScope => GRANTABLE.has(value);

/** The set of scopes a principal holds, answering "may it do X" in one place. */
export class ScopeSet {
  private readonly granted: ReadonlySet<string>;

  constructor(scopes: Iterable<string>) {
    this.granted = new Set(scopes);
  }

  static parse(spaceSeparated: string): ScopeSet {
    return new ScopeSet(spaceSeparated.split(/\s+/).filter((s) => s.length > 0));
  }

  get wildcard(): boolean {
    return this.granted.has(ADR_WILDCARD);
  }

  hasOAuth(scope: OAuthScope): boolean {
    if (this.wildcard || this.granted.has(scope)) return true;
    for (const adr of ADR_SCOPES) {
      if (this.granted.has(adr) && ADR_TO_OAUTH[adr].includes(scope)) return true;
    }
    return false;
  }

  allows(operation: Operation): boolean {
    return this.missingFor(operation).length === 0;
  }

  /** What the principal lacks for the operation (empty when allowed): the `scope` of an `insufficient_scope` refusal (SLR-13). */
  missingFor(operation: Operation): string[] {
    const grant: OperationGrant | OperatorGrant = OPERATION_SCOPES[operation];
    if (grant.oauth === null) return grant.adr.some((s) => this.granted.has(s)) ? [] : [grant.adr[0]];
    if (grant.adr.some((s) => this.granted.has(s))) return [];
    return grant.oauth.filter((scope) => !this.hasOAuth(scope));
  }

  toArray(): string[] {
    return [...this.granted].sort();
  }
}
