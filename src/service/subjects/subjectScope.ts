import { dataSubjectKey } from '../../domain/identityHashes.js';
import { IDENTIFIER_PATTERN } from '../../auth/apiKeys.js';
import { API_KEY_ISSUER } from '../../auth/authenticate.js';
import { ownerHashOf } from '../../auth/principal.js';
import { HelixError } from '../../domain/errors.js';
import type { SubjectScope, UnitOfWork } from '../../store/port.js';
import type { SubjectDeps } from './deps.js';

/**
 * A subject is named by an account id: a Helix account (`acct_…`) or the account an `hlx_` key is
 * bound to, with the same shape rule as keys. The id itself is never stored by subject access.
 */
export const requireAccountId = (accountId: string): string => {
  if (!IDENTIFIER_PATTERN.test(accountId)) {
    throw new HelixError('invalid_request', {
      issues: [
        {
          path: 'account_id',
          message: 'must be 1-200 characters of A-Z a-z 0-9 . _ : @ - starting with a letter or digit',
        },
      ],
    });
  }
  return accountId;
};

export const subjectKeyOf = (deps: SubjectDeps, accountId: string): string =>
  dataSubjectKey(deps.instanceSecret, accountId);

/**
 * Every owner attributed to the subject: those registered with their first write, and those of
 * the subject's `hlx_` keys, derived from the key rows (an API-key owner is exactly its tenant and
 * account), which also covers keys that wrote before the registry existed.
 */
export const scopeOf = async (
  deps: Pick<SubjectDeps, 'instanceSecret'>,
  uow: UnitOfWork,
  accountId: string,
  registered: readonly string[],
): Promise<SubjectScope> => {
  const keys = await uow.apiKeys.listForAccount(accountId);
  const derived = keys.map((k) =>
    ownerHashOf({ tenantId: k.tenantId, issuer: API_KEY_ISSUER, subject: accountId, accountId }, deps.instanceSecret),
  );
  return { accountId, ownerHashes: [...new Set([...registered, ...derived])].sort() };
};

/** The record kind under which owner registrations are counted (they are erased, never exported). */
export const OWNER_REGISTRATIONS = 'owner_registrations';

export const totalOf = (counts: Readonly<Record<string, number>>): number =>
  Object.values(counts).reduce((sum, n) => sum + n, 0);
