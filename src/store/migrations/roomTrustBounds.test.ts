import { PGlite } from '@electric-sql/pglite';
import { type Dialect, Kysely, Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createPgliteDialect } from '../dialects/pglite.js';
import { createSqliteDialect } from '../dialects/sqlite.js';
import { migrationProvider, type StoreDialect } from './index.js';

const NOW = 1_800_000_000_000;
const ROOM = `room_${'a'.repeat(24)}`;
const hash = (c: string) => c.repeat(64);

/** A database migrated up to 0017, holding what the race and the old removal could leave behind. */
const legacy = async (dialect: Dialect, name: StoreDialect) => {
  const db = new Kysely<unknown>({ dialect });
  const migrator = new Migrator({
    db,
    provider: migrationProvider(name),
    migrationTableName: 'helix_migrations',
    migrationLockTableName: 'helix_migrations_lock',
  });
  expect((await migrator.migrateTo('0017_drop_run_owner_index')).error).toBeUndefined();
  const member = (account: string, role: string, removed: number | null) =>
    sql`insert into helix_room_members (room_id, account_id, role, accepted_consent_version, consent_receipt_ref, joined_at, removed_at)
        values (${ROOM}, ${account}, ${role}, 1, null, ${NOW}, ${removed})`.execute(db);
  await member('acct_owner', 'owner', null);
  await member('acct_gone', 'owner', NOW + 1);
  await member('acct_demoted', 'member', null);
  const invite = (c: string, by: string, usedAt: number | null) =>
    sql`insert into helix_room_invites (token_hash, room_id, role, created_by, created_at, expires_at, used_at, used_by)
        values (${hash(c)}, ${ROOM}, 'owner', ${by}, ${NOW}, ${NOW + 86_400_000}, ${usedAt}, ${usedAt === null ? null : 'acct_x'})`.execute(
      db,
    );
  await invite('a', 'acct_owner', null);
  await invite('b', 'acct_gone', null);
  await invite('c', 'acct_demoted', null);
  await invite('d', 'acct_gone', NOW);
  const chatBinding = (ref: string, run: string, at: number) =>
    sql`insert into helix_room_chat_bindings (binding_ref, run_id, owner_hash, chat_session_id, status, created_at, revoked_at)
        values (${ref}, ${run}, ${hash('o')}, 'chat_one', 'active', ${at}, null)`.execute(db);
  await chatBinding(`rcb_${'2'.repeat(32)}`, 'run_second', NOW + 5);
  await chatBinding(`rcb_${'1'.repeat(32)}`, 'run_first', NOW);
  return { db, migrator };
};

describe.each([
  { name: 'sqlite' as const, dialect: () => createSqliteDialect({ path: ':memory:' }) },
  { name: 'postgres' as const, dialect: () => createPgliteDialect(new PGlite()) },
])('0018_room_trust_bounds on $name (issue 27 items 2 and 13)', ({ name, dialect }) => {
  let open: Kysely<unknown> | undefined;
  afterEach(async () => open?.destroy());

  it("gives old invites a reference, revokes those of issuers no longer owners, and keeps one chat's oldest active binding", async () => {
    const { db, migrator } = await legacy(dialect(), name);
    open = db;
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const invites = (
      await sql<{ token_hash: string; invite_ref: string; revoked_at: unknown }>`
        select token_hash, invite_ref, revoked_at from helix_room_invites order by token_hash`.execute(db)
    ).rows;
    expect(invites.map((i) => [i.invite_ref, i.revoked_at === null])).toEqual([
      [`rinv_${'a'.repeat(32)}`, true], // the owner's: still pending
      [`rinv_${'b'.repeat(32)}`, false], // a removed owner's: revoked
      [`rinv_${'c'.repeat(32)}`, false], // a demoted owner's: revoked
      [`rinv_${'d'.repeat(32)}`, true], // used: nothing to revoke
    ]);
    const bindings = (
      await sql<{ run_id: string; status: string }>`
        select run_id, status from helix_room_chat_bindings order by run_id`.execute(db)
    ).rows;
    expect(bindings).toEqual([
      { run_id: 'run_first', status: 'active' },
      { run_id: 'run_second', status: 'revoked' },
    ]);
    // From now on the database refuses a second active binding of the chat.
    await expect(
      sql`insert into helix_room_chat_bindings (binding_ref, run_id, owner_hash, chat_session_id, status, created_at, revoked_at)
          values (${`rcb_${'3'.repeat(32)}`}, 'run_third', ${hash('o')}, 'chat_one', 'active', ${NOW}, null)`.execute(
        db,
      ),
    ).rejects.toThrow();
  });
});
