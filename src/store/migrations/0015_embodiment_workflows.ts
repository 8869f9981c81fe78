import type { Kysely, Migration } from 'kysely';

/**
 * Multi-step workflows and the console's view of a room's workflows (docs/embodiment.md). An
 * action gets its step number in its workflow: step 0 is queued at once, each later step waits
 * (`waiting`) until the one before it completes. Existing actions are single-step workflows, step
 * 0. The index finds a room's open workflows for the console's manual override, and a subject's
 * open workflow (one at a time per subject).
 */
export const embodimentWorkflows: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('helix_environment_actions')
      .addColumn('step', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createIndex('helix_environment_workflows_room')
      .on('helix_environment_workflows')
      .columns(['room_id', 'status', 'updated_at'])
      .execute();
    await db.schema
      .createIndex('helix_environment_workflows_subject')
      .on('helix_environment_workflows')
      .columns(['subject_ref', 'status'])
      .execute();
  },
};
