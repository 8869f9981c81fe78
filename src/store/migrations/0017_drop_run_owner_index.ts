import type { Kysely, Migration } from 'kysely';

/**
 * `helix_agent_runs_owner` (owner_hash) is a prefix of `helix_agent_runs_owner_created`
 * (owner_hash, created_at, run_id, migration 0016), which serves every lookup by owner as well:
 * the narrower index only cost a page write on every start. Dropping it halves the index work of
 * a run insert (issue 19).
 */
export const dropRunOwnerIndex: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('helix_agent_runs_owner').ifExists().execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.createIndex('helix_agent_runs_owner').on('helix_agent_runs').column('owner_hash').execute();
  },
};
