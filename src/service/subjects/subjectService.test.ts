import { describe, expect, it } from 'vitest';
import type { Principal, PrincipalKind } from '../../auth/principal.js';
import type { HelixError } from '../../domain/errors.js';
import { ScopeSet } from '../../domain/scopes.js';
import { requireSubjectOperation } from './subjectService.js';

const principal = (kind: PrincipalKind, scopes: string): Principal => ({
  kind,
  tenantId: 't',
  issuer: 'https://issuer.example',
  subject: 's',
  accountId: 'a',
  scopes: ScopeSet.parse(scopes),
  credentialId: 'c',
  linkedAccount: false,
});

const refusal = (fn: () => void): HelixError | undefined => {
  try {
    fn();
    return undefined;
  } catch (err) {
    return err as HelixError;
  }
};

describe('subject access is operator-only', () => {
  it('admits an hlx_ key holding the operation scope', () => {
    expect(
      refusal(() => requireSubjectOperation(principal('api_key', 'subject.erase'), 'subject.erase')),
    ).toBeUndefined();
  });

  it('refuses tokens even when their scope claim names the subject scopes', () => {
    for (const kind of ['oauth_jwt', 'local_jwt'] as const) {
      const err = refusal(() =>
        requireSubjectOperation(principal(kind, 'subject.read subject.export subject.erase'), 'subject.export'),
      );
      expect(err?.code).toBe('insufficient_scope');
      expect(err?.details.scope).toBe('subject.export');
    }
  });

  it('refuses a key with another subject scope, the wildcard, or run scopes', () => {
    for (const scopes of ['subject.read', 'aep:*', 'helix.agent_runs.read helix.agent_runs.write agent.write']) {
      expect(refusal(() => requireSubjectOperation(principal('api_key', scopes), 'subject.erase'))?.code).toBe(
        'insufficient_scope',
      );
    }
  });
});
