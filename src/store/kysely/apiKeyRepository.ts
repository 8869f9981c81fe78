import type { Kysely, Selectable } from 'kysely';
import type { CredentialsChanged } from '../credentialChanges.js';
import type { ApiKeyRecord, ApiKeyRepository } from '../port.js';
import type { ApiKeysTable, HelixDatabase } from '../schema.js';
import { toMillis, toMillisOrNull } from './columns.js';

const fromRow = (row: Selectable<ApiKeysTable>): ApiKeyRecord => ({
  keyId: row.key_id,
  keyHash: row.key_hash,
  displayPrefix: row.display_prefix,
  tenantId: row.tenant_id,
  accountId: row.account_id,
  scopes: JSON.parse(row.scopes) as string[],
  label: row.label,
  createdAt: toMillis(row.created_at),
  revokedAt: toMillisOrNull(row.revoked_at),
});

export const apiKeyRepository = (
  db: Kysely<HelixDatabase>,
  credentialsChanged: CredentialsChanged,
): ApiKeyRepository => ({
  async insert(key) {
    await db
      .insertInto('helix_api_keys')
      .values({
        key_id: key.keyId,
        key_hash: key.keyHash,
        display_prefix: key.displayPrefix,
        tenant_id: key.tenantId,
        account_id: key.accountId,
        scopes: JSON.stringify(key.scopes),
        label: key.label,
        created_at: key.createdAt,
        revoked_at: key.revokedAt,
      })
      .execute();
  },
  async findByHash(keyHash) {
    const row = await db.selectFrom('helix_api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
    return row === undefined ? undefined : fromRow(row);
  },
  async list() {
    const rows = await db.selectFrom('helix_api_keys').selectAll().orderBy('created_at', 'asc').execute();
    return rows.map(fromRow);
  },
  async listForAccount(accountId) {
    const rows = await db
      .selectFrom('helix_api_keys')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'asc')
      .execute();
    return rows.map(fromRow);
  },
  async revoke(keyId, at) {
    const existing = await db
      .selectFrom('helix_api_keys')
      .select('key_id')
      .where('key_id', '=', keyId)
      .executeTakeFirst();
    if (existing === undefined) return false;
    await db
      .updateTable('helix_api_keys')
      .set({ revoked_at: at })
      .where('key_id', '=', keyId)
      .where('revoked_at', 'is', null)
      .execute();
    await credentialsChanged(db);
    return true;
  },
});
