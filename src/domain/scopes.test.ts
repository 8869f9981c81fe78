import { describe, expect, it } from 'vitest';
import type { HelixError } from './errors.js';
import {
  ADR_SCOPES,
  MODEL_PROVIDER_OPERATIONS,
  ROOM_OPERATIONS,
  requireScopes,
  type Operation,
  OAUTH_SCOPES,
  OPERATION_SCOPES,
  RUN_OPERATIONS,
  SUBJECT_OPERATIONS,
  ScopeSet,
  isGrantableScope,
  requiredScopeOf,
  dataScopeOAuthScope,
} from './scopes.js';
import { SCOPE_CATALOG } from './scopeCatalog.js';

describe('scope registry', () => {
  it('every operation names a contract OAuth scope, and that scope alone allows it', () => {
    for (const operation of RUN_OPERATIONS) {
      expect(new ScopeSet(OPERATION_SCOPES[operation].oauth).allows(operation)).toBe(true);
    }
  });

  it('maps ADR-0004 scopes onto exactly the operations documented', () => {
    const allowed = (scopes: string) => RUN_OPERATIONS.filter((op) => ScopeSet.parse(scopes).allows(op));
    expect(allowed('run.read')).toEqual(['run.inspect', 'run.events', 'run.evidence', 'run.events_stream', 'run.list']);
    expect(allowed('run.create')).toEqual(['run.start', 'run.continue']);
    expect(allowed('run.cancel')).toEqual(['run.cancel']);
    expect(allowed('stream.subscribe')).toEqual(['run.events', 'run.events_stream']);
    expect(allowed('agent.write')).toEqual(['run.start', 'run.continue', 'run.cancel']);
    expect(allowed('memory.read tool.invoke provider.write')).toEqual([]);
    expect(allowed('aep:*')).toEqual([...RUN_OPERATIONS]);
  });

  it('data scopes come only from their OAuth scope (or the wildcard)', () => {
    expect(ScopeSet.parse('helix.data.research_library.read').hasOAuth('helix.data.research_library.read')).toBe(true);
    expect(ScopeSet.parse('agent.read agent.write run.create').hasOAuth('helix.data.research_library.read')).toBe(
      false,
    );
  });

  it('knows the grantable vocabulary', () => {
    expect(isGrantableScope('provider.read')).toBe(true);
    expect(isGrantableScope('helix.agent_runs.write')).toBe(true);
    expect(isGrantableScope('admin')).toBe(false);
  });

  it('maps provider.read / provider.write onto the model-provider OAuth scopes and nothing else', () => {
    const allowed = (scopes: string) =>
      [...RUN_OPERATIONS, ...MODEL_PROVIDER_OPERATIONS].filter((op) => ScopeSet.parse(scopes).allows(op));
    expect(allowed('provider.read')).toEqual(['model_provider.list', 'model_provider.inspect']);
    expect(allowed('provider.write')).toEqual(['model_provider.register', 'model_provider.delete']);
    expect(allowed('helix.model_providers.read')).toEqual(['model_provider.list', 'model_provider.inspect']);
    expect(allowed('helix.model_providers.write')).toEqual(['model_provider.register', 'model_provider.delete']);
    expect(ScopeSet.parse('provider.write').hasOAuth('helix.model_providers.write')).toBe(true);
    expect(ScopeSet.parse('provider.write').hasOAuth('helix.model_providers.read')).toBe(false);
    // Run scopes admit no provider operation, and provider scopes no run operation.
    expect(allowed('helix.agent_runs.read helix.agent_runs.write agent.write run.create')).not.toContain(
      'model_provider.register',
    );
    expect(allowed('provider.read provider.write').filter((op) => op.startsWith('run.'))).toEqual([]);
    expect(allowed('aep:*')).toEqual([...RUN_OPERATIONS, ...MODEL_PROVIDER_OPERATIONS]);
  });
});

describe('operator-only subject operations', () => {
  const allowed = (scopes: string) => SUBJECT_OPERATIONS.filter((op) => ScopeSet.parse(scopes).allows(op));

  it('are admitted only by their own explicit ADR-0004 scope', () => {
    expect(allowed('subject.read')).toEqual(['subject.read']);
    expect(allowed('subject.export')).toEqual(['subject.export']);
    expect(allowed('subject.erase')).toEqual(['subject.erase']);
    expect(allowed('subject.read subject.export subject.erase')).toEqual([...SUBJECT_OPERATIONS]);
  });

  it('are not granted by the aep:* wildcard, nor by any run, provider or OAuth scope', () => {
    expect(allowed('aep:*')).toEqual([]);
    expect(
      allowed(['agent.read', 'agent.write', 'run.read', 'provider.read', 'provider.write', ...OAUTH_SCOPES].join(' ')),
    ).toEqual([]);
  });

  it('subject scopes admit no run or provider operation', () => {
    const other = [...RUN_OPERATIONS, ...MODEL_PROVIDER_OPERATIONS].filter((op) =>
      ScopeSet.parse('subject.read subject.export subject.erase').allows(op),
    );
    expect(other).toEqual([]);
  });

  it('a refusal names the ADR-0004 scope, since no OAuth scope admits them', () => {
    expect(requiredScopeOf('subject.erase')).toBe('subject.erase');
    expect(requiredScopeOf('run.start')).toBe('helix.agent_runs.write');
  });
});

describe('multi-scope room operations (PRE-05, SLR-13, SLR-15)', () => {
  const refusal = (scopes: string, operation: Operation): unknown => {
    try {
      requireScopes(ScopeSet.parse(scopes), operation);
      return undefined;
    } catch (err) {
      return { code: (err as HelixError).code, scope: (err as HelixError).details.scope };
    }
  };

  it('room.bind_run needs helix.rooms.manage AND helix.agent_runs.write; the refusal names what is missing', () => {
    expect(refusal('helix.rooms.manage helix.agent_runs.write', 'room.bind_run')).toBeUndefined();
    expect(refusal('helix.rooms.manage', 'room.bind_run')).toEqual({
      code: 'insufficient_scope',
      scope: 'helix.agent_runs.write',
    });
    expect(refusal('helix.agent_runs.write', 'room.bind_run')).toEqual({
      code: 'insufficient_scope',
      scope: 'helix.rooms.manage',
    });
    expect(refusal('helix.rooms.read', 'room.unbind_run')).toEqual({
      code: 'insufficient_scope',
      scope: 'helix.rooms.manage helix.agent_runs.write',
    });
    expect(requiredScopeOf('room.bind_run')).toBe('helix.rooms.manage helix.agent_runs.write');
  });

  it('no ADR-0004 scope admits a room operation; the aep:* wildcard grants every OAuth scope (SLR-15)', () => {
    const adrOnly = ADR_SCOPES.filter((s) => s !== 'agent.write' && s !== 'agent.read').join(' ');
    expect(ROOM_OPERATIONS.filter((op) => ScopeSet.parse(`${adrOnly} agent.write agent.read`).allows(op))).toEqual([]);
    expect(ROOM_OPERATIONS.filter((op) => ScopeSet.parse('aep:*').allows(op))).toEqual([...ROOM_OPERATIONS]);
  });

  it('BRE-01, PRB-01: the room lanes are catalog scopes entitled by helix.rooms.read, each with its family and capability', () => {
    expect(dataScopeOAuthScope('research_library')).toBe('helix.data.research_library.read');
    expect(SCOPE_CATALOG.get('bound_room_evidence')).toEqual({
      id: 'bound_room_evidence',
      oauthScope: 'helix.rooms.read',
      requiredFamily: 'shared_live_room_evidence',
      capabilities: ['room.evidence.read_bound'],
    });
    expect(SCOPE_CATALOG.get('bound_room_environment_probe')).toEqual({
      id: 'bound_room_environment_probe',
      oauthScope: 'helix.rooms.read',
      requiredFamily: 'shared_live_room_environment_probe',
      capabilities: ['com.casimirbot.minecraft.inventory.check'],
    });
  });
});
