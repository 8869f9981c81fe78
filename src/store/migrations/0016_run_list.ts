import type { Kysely, Migration } from 'kysely';

/**
 * The run list (GET /api/v1/agent-runs and the console's run list): one owner's runs, newest
 * first, paged by keyset on (created_at, run_id). This index serves exactly that order per owner,
 * so a page costs the rows it returns, not a sort of every run the owner has.
 */
export const runList: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createIndex('helix_agent_runs_owner_created')
      .on('helix_agent_runs')
      .columns(['owner_hash', 'created_at', 'run_id'])
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('helix_agent_runs_owner_created').execute();
  },
};
