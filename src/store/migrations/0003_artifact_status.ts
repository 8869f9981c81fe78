import type { Kysely, Migration } from 'kysely';

/**
 * Artifacts are recorded as a turn retrieves them (`retrieved`), and marked `admitted` when the
 * turn's re-entry audit admits them. Rows written before this migration were all admitted.
 */
export const artifactStatus: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('helix_agent_run_artifacts')
      .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('admitted'))
      .execute();
  },
};
