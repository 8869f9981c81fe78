import type { Kysely } from 'kysely';
import type { MetaRepository } from '../port.js';
import type { HelixDatabase } from '../schema.js';

export const metaRepository = (db: Kysely<HelixDatabase>): MetaRepository => ({
  async get(key) {
    const row = await db.selectFrom('helix_meta').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value;
  },
  async setIfAbsent(key, value) {
    await db
      .insertInto('helix_meta')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    const row = await db.selectFrom('helix_meta').select('value').where('key', '=', key).executeTakeFirstOrThrow();
    return row.value;
  },
});
