import type { Kysely, Migration } from 'kysely';

/**
 * Per-account policy overrides (src/domain/accountPolicy.ts): only the operator's explicit
 * choices, as JSON text; an account without a row follows the deployment default.
 */
export const accountPolicies: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('helix_account_policies')
      .addColumn('account_id', 'varchar(64)', (c) => c.primaryKey().references('helix_accounts.account_id'))
      .addColumn('overrides', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
