import { newSecret, secretHash } from '../../accounts/secrets.js';
import { subjectHash, tenantHash } from '../../domain/identityHashes.js';
import type { BindingRecord } from '../../store/port.js';
import { AccountInputError } from './accountErrors.js';
import type { AccountDeps } from './deps.js';

const IDENTITY_PART = /^[\x21-\x7e]{1,512}$/;

export interface VerifiedIdentity {
  readonly issuer: string;
  readonly tenantId: string;
  readonly provider: string;
  readonly subject: string;
}

/**
 * The account-link step a trusted adapter calls after it verified the external identity itself.
 * In one transaction it consumes the intent, links the provider subject to the account and
 * creates (or returns) the active agent binding. Nothing here trusts token claims.
 */
export const completeLink = async (
  deps: AccountDeps,
  intent: string,
  identity: VerifiedIdentity,
): Promise<BindingRecord> => {
  for (const [name, value] of Object.entries(identity)) {
    if (!IDENTITY_PART.test(value)) throw new AccountInputError(`${name} must be 1-512 printable characters`);
  }
  const now = deps.now();
  return deps.store.transaction(async (uow) => {
    const accountId = await uow.sessions.consumeOneTime(secretHash(intent), 'link_intent', now);
    if (accountId === undefined) throw new AccountInputError('the link intent is unknown, expired or already used');
    const subject = subjectHash(deps.instanceSecret, identity.provider, identity.subject);
    const linked = await uow.accounts.linkProvider(identity.provider, subject, accountId, now);
    if (linked === 'linked_elsewhere')
      throw new AccountInputError('that provider subject is already linked to another account');
    const key = {
      issuer: identity.issuer,
      tenantHash: tenantHash(deps.instanceSecret, identity.tenantId),
      provider: identity.provider,
      subjectHash: subject,
    };
    const existing = await uow.bindings.findActive(key);
    if (existing !== undefined) return existing;
    const binding: BindingRecord = {
      bindingRef: `agent-binding:sha256:${newSecret().hash}`,
      accountId,
      ...key,
      status: 'active',
      createdAt: now,
      updatedAt: now,
      revokedAt: null,
    };
    await uow.bindings.insert(binding);
    return binding;
  });
};
