import type { Kysely, Selectable } from 'kysely';
import type { CredentialsChanged } from '../credentialChanges.js';
import type { AccountRecord, AccountRepository, AccountStatus } from '../port.js';
import type { AccountsTable, HelixDatabase } from '../schema.js';
import { toMillis } from './columns.js';

const fromRow = (row: Selectable<AccountsTable>): AccountRecord => ({
  accountId: row.account_id,
  displayName: row.display_name,
  status: row.status as AccountStatus,
  passwordHash: row.password_hash,
  createdAt: toMillis(row.created_at),
  updatedAt: toMillis(row.updated_at),
});

export const accountRepository = (
  db: Kysely<HelixDatabase>,
  credentialsChanged: CredentialsChanged,
): AccountRepository => ({
  async insert(a) {
    await db
      .insertInto('helix_accounts')
      .values({
        account_id: a.accountId,
        display_name: a.displayName,
        status: a.status,
        password_hash: a.passwordHash,
        created_at: a.createdAt,
        updated_at: a.updatedAt,
      })
      .execute();
    // A key of this account id was admitted as unlinked until now; it is a Helix account's key from here on.
    await credentialsChanged(db);
  },
  async get(accountId) {
    const row = await db
      .selectFrom('helix_accounts')
      .selectAll()
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row === undefined ? undefined : fromRow(row);
  },
  async list() {
    return (await db.selectFrom('helix_accounts').selectAll().orderBy('created_at').execute()).map(fromRow);
  },
  async setPassword(accountId, passwordHash, at) {
    const result = await db
      .updateTable('helix_accounts')
      .set({ password_hash: passwordHash, updated_at: at })
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },
  async setStatus(accountId, status, at) {
    const result = await db
      .updateTable('helix_accounts')
      .set({ status, updated_at: at })
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    await credentialsChanged(db);
    return Number(result.numUpdatedRows) === 1;
  },
  async getPolicyOverrides(accountId) {
    const row = await db
      .selectFrom('helix_account_policies')
      .select('overrides')
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row?.overrides;
  },
  async setPolicyOverrides(accountId, overrides, at) {
    const account = await db
      .selectFrom('helix_accounts')
      .select('account_id')
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (account === undefined) return false;
    await db
      .insertInto('helix_account_policies')
      .values({ account_id: accountId, overrides, updated_at: at })
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ overrides, updated_at: at }))
      .execute();
    return true;
  },
  async linkProvider(provider, subjectHash, accountId, at) {
    const existing = await db
      .selectFrom('helix_account_linked_providers')
      .select('account_id')
      .where('provider', '=', provider)
      .where('subject_hash', '=', subjectHash)
      .executeTakeFirst();
    if (existing !== undefined) return existing.account_id === accountId ? 'already_linked' : 'linked_elsewhere';
    await db
      .insertInto('helix_account_linked_providers')
      .values({ provider, subject_hash: subjectHash, account_id: accountId, created_at: at })
      .execute();
    return 'linked';
  },
  async findLinkedAccount(provider, subjectHash) {
    const row = await db
      .selectFrom('helix_account_linked_providers as l')
      .innerJoin('helix_accounts as a', 'a.account_id', 'l.account_id')
      .selectAll('a')
      .where('l.provider', '=', provider)
      .where('l.subject_hash', '=', subjectHash)
      .executeTakeFirst();
    return row === undefined ? undefined : fromRow(row);
  },
});
