import type { Kysely } from 'kysely';
import type { SessionRepository } from '../port.js';
import type { HelixDatabase } from '../schema.js';
import { toMillis, toMillisOrNull } from './columns.js';

const sessionOps = (db: Kysely<HelixDatabase>): Pick<SessionRepository, 'insert' | 'get' | 'revoke'> => ({
  async insert(s) {
    await db
      .insertInto('helix_sessions')
      .values({
        session_hash: s.sessionHash,
        account_id: s.accountId,
        created_at: s.createdAt,
        expires_at: s.expiresAt,
        revoked_at: s.revokedAt,
      })
      .execute();
  },
  async get(sessionHash) {
    const row = await db
      .selectFrom('helix_sessions')
      .selectAll()
      .where('session_hash', '=', sessionHash)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    return {
      sessionHash: row.session_hash,
      accountId: row.account_id,
      createdAt: toMillis(row.created_at),
      expiresAt: toMillis(row.expires_at),
      revokedAt: toMillisOrNull(row.revoked_at),
    };
  },
  async revoke(sessionHash, at) {
    await db
      .updateTable('helix_sessions')
      .set({ revoked_at: at })
      .where('session_hash', '=', sessionHash)
      .where('revoked_at', 'is', null)
      .execute();
  },
});

const oneTimeOps = (
  db: Kysely<HelixDatabase>,
): Pick<SessionRepository, 'issueOneTime' | 'consumeOneTime' | 'findOneTime'> => ({
  async issueOneTime(tokenHash, purpose, accountId, at, expiresAt) {
    await db
      .insertInto('helix_one_time_tokens')
      .values({
        token_hash: tokenHash,
        purpose,
        account_id: accountId,
        created_at: at,
        expires_at: expiresAt,
        consumed_at: null,
      })
      .execute();
  },
  async consumeOneTime(tokenHash, purpose, at) {
    // One conditional UPDATE: of two concurrent consumers, exactly one changes the row.
    const result = await db
      .updateTable('helix_one_time_tokens')
      .set({ consumed_at: at })
      .where('token_hash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', at)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return undefined;
    const row = await db
      .selectFrom('helix_one_time_tokens')
      .select('account_id')
      .where('token_hash', '=', tokenHash)
      .executeTakeFirstOrThrow();
    return row.account_id;
  },
  async findOneTime(tokenHash, purpose, at) {
    const row = await db
      .selectFrom('helix_one_time_tokens')
      .select('account_id')
      .where('token_hash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', at)
      .executeTakeFirst();
    return row?.account_id;
  },
});

export const sessionRepository = (db: Kysely<HelixDatabase>): SessionRepository => ({
  ...sessionOps(db),
  ...oneTimeOps(db),
  async revokeAllForAccount(accountId, at) {
    await db
      .updateTable('helix_sessions')
      .set({ revoked_at: at })
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .execute();
    await db
      .updateTable('helix_one_time_tokens')
      .set({ consumed_at: at })
      .where('account_id', '=', accountId)
      .where('consumed_at', 'is', null)
      .execute();
  },
});
