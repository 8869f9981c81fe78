import { randomBytes } from 'node:crypto';
import { HelixError } from '../domain/errors.js';
import type { AccountRecord, BindingRecord, Store } from '../store/port.js';
import { subjectHash, tenantHash } from '../domain/identityHashes.js';
import { hashPassword, newSecret, PASSWORD_RULES, secretHash } from './secrets.js';

export const LINK_INTENT_TTL_MS = 15 * 60 * 1000;

export class AccountInputError extends Error {
  override readonly name = 'AccountInputError';
}

const IDENTITY_PART = /^[\x21-\x7e]{1,512}$/;

export const createAccount = async (
  store: Store,
  displayName: string,
  now: number,
  password?: string,
): Promise<AccountRecord> => {
  const name = displayName.trim();
  if (name.length === 0 || name.length > 200) throw new AccountInputError('the account name must be 1-200 characters');
  const account: AccountRecord = {
    accountId: `acct_${randomBytes(12).toString('hex')}`,
    displayName: name,
    status: 'active',
    passwordHash: password === undefined ? null : await hashPassword(checkedPassword(password)),
    createdAt: now,
    updatedAt: now,
  };
  await store.read.accounts.insert(account);
  return account;
};

export const checkedPassword = (password: string): string => {
  if (password.length < PASSWORD_RULES.minLength || password.length > PASSWORD_RULES.maxLength) {
    throw new AccountInputError(`a password needs ${PASSWORD_RULES.minLength}-${PASSWORD_RULES.maxLength} characters`);
  }
  return password;
};

/** A hashed, expiring, single-use intent to link one external identity to this account. */
export const issueLinkIntent = async (store: Store, accountId: string, now: number): Promise<string> => {
  const account = await store.read.accounts.get(accountId);
  if (account?.status !== 'active') throw new AccountInputError(`no active account ${accountId.slice(0, 80)}`);
  const intent = newSecret();
  await store.read.sessions.issueOneTime(intent.hash, 'link_intent', accountId, now, now + LINK_INTENT_TTL_MS);
  return intent.value;
};

export interface VerifiedIdentity {
  readonly issuer: string;
  readonly tenantId: string;
  readonly provider: string;
  readonly subject: string;
}

/**
 * The internal account-link service a trusted adapter calls after it verified the external
 * identity itself. In one transaction it consumes the intent, links the provider subject to the
 * account and creates (or returns) the active agent binding. Nothing here trusts token claims.
 */
export const completeLink = async (
  store: Store,
  secret: string,
  intent: string,
  identity: VerifiedIdentity,
  now: number,
): Promise<BindingRecord> => {
  for (const [name, value] of Object.entries(identity)) {
    if (!IDENTITY_PART.test(value)) throw new AccountInputError(`${name} must be 1-512 printable characters`);
  }
  return store.transaction(async (uow) => {
    const accountId = await uow.sessions.consumeOneTime(secretHash(intent), 'link_intent', now);
    if (accountId === undefined) throw new AccountInputError('the link intent is unknown, expired or already used');
    const subject = subjectHash(secret, identity.provider, identity.subject);
    const linked = await uow.accounts.linkProvider(identity.provider, subject, accountId, now);
    if (linked === 'linked_elsewhere')
      throw new AccountInputError('that provider subject is already linked to another account');
    const key = {
      issuer: identity.issuer,
      tenantHash: tenantHash(secret, identity.tenantId),
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

export const requireActiveAccount = (account: AccountRecord | undefined): AccountRecord => {
  if (account === undefined || account.status !== 'active') throw new HelixError('account_not_linked');
  return account;
};
