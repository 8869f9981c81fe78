import type { Principal } from '../../auth/principal.js';
import { HelixError } from '../../domain/errors.js';
import { requiredScopeOf, type SubjectOperation } from '../../domain/scopes.js';
import { eraseSubject } from './eraseSubject.js';
import { exportSubject } from './exportSubject.js';
import type { SubjectDeps } from './deps.js';
import { summarizeSubject } from './summarizeSubject.js';

/**
 * Subject access is operator-only. The ADR-0004 subject scopes count only on an `hlx_` key, which
 * only an operator with access to the database can mint (`helix keys create`); a token's scope
 * claim never carries them, whoever signed it, and `aep:*` does not imply them (src/domain/scopes.ts).
 */
export const requireSubjectOperation = (principal: Principal, operation: SubjectOperation): void => {
  if (principal.kind !== 'api_key' || !principal.scopes.allows(operation)) {
    throw new HelixError('insufficient_scope', { scope: requiredScopeOf(operation) });
  }
};

/** The REST facade: the scope check, then the same use case the CLI runs. */
export class SubjectService {
  constructor(private readonly deps: SubjectDeps) {}

  show(principal: Principal, accountId: string) {
    requireSubjectOperation(principal, 'subject.read');
    return summarizeSubject(this.deps, accountId);
  }

  export(principal: Principal, accountId: string) {
    requireSubjectOperation(principal, 'subject.export');
    return exportSubject(this.deps, accountId);
  }

  erase(principal: Principal, accountId: string, idempotencyKey: string | undefined) {
    requireSubjectOperation(principal, 'subject.erase');
    return eraseSubject(this.deps, { accountId, requestedBy: principal.credentialId, idempotencyKey });
  }
}
