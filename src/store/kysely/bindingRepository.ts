import type { Kysely, Selectable } from 'kysely';
import type { BindingRecord, BindingRepository, BindingStatus } from '../port.js';
import type { AgentAccountBindingsTable, HelixDatabase } from '../schema.js';
import { toMillis, toMillisOrNull } from './columns.js';

const fromRow = (row: Selectable<AgentAccountBindingsTable>): BindingRecord => ({
  bindingRef: row.binding_ref,
  accountId: row.account_id,
  issuer: row.issuer,
  tenantHash: row.tenant_hash,
  provider: row.provider,
  subjectHash: row.subject_hash,
  status: row.status as BindingStatus,
  createdAt: toMillis(row.created_at),
  updatedAt: toMillis(row.updated_at),
  revokedAt: toMillisOrNull(row.revoked_at),
});

export const bindingRepository = (db: Kysely<HelixDatabase>): BindingRepository => ({
  async insert(b) {
    await db
      .insertInto('helix_agent_account_bindings')
      .values({
        binding_ref: b.bindingRef,
        account_id: b.accountId,
        issuer: b.issuer,
        tenant_hash: b.tenantHash,
        provider: b.provider,
        subject_hash: b.subjectHash,
        status: b.status,
        created_at: b.createdAt,
        updated_at: b.updatedAt,
        revoked_at: b.revokedAt,
      })
      .execute();
  },
  async findActive(identity) {
    const row = await db
      .selectFrom('helix_agent_account_bindings')
      .selectAll()
      .where('issuer', '=', identity.issuer)
      .where('tenant_hash', '=', identity.tenantHash)
      .where('provider', '=', identity.provider)
      .where('subject_hash', '=', identity.subjectHash)
      .where('status', '=', 'active')
      .executeTakeFirst();
    return row === undefined ? undefined : fromRow(row);
  },
  async listForAccount(accountId) {
    const rows = await db
      .selectFrom('helix_agent_account_bindings')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .execute();
    return rows.map(fromRow);
  },
  async revoke(accountId, bindingRef, at) {
    // The account is part of the match: another account's ref is indistinguishable from a missing one.
    const row = await db
      .selectFrom('helix_agent_account_bindings')
      .select('status')
      .where('binding_ref', '=', bindingRef)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (row === undefined) return 'not_found';
    if (row.status === 'revoked') return 'already_revoked';
    await db
      .updateTable('helix_agent_account_bindings')
      .set({ status: 'revoked', revoked_at: at, updated_at: at })
      .where('binding_ref', '=', bindingRef)
      .where('account_id', '=', accountId)
      .execute();
    return 'revoked';
  },
});
