import type { Kysely, Migration } from 'kysely';

/**
 * ATP-31, "agent execution cannot authorize a human confirmation" (docs/agent-tasks.md "Questions
 * for the user"): each credential that executed an agent call of a run (claimed it, or completed
 * it) is recorded as a keyed hash (src/auth/agentExecutor.ts), never in clear. A continue that
 * answers a confirmation question is refused when its credential is one of them. The primary key
 * makes recording the same credential again write nothing; rows go with their run's subject.
 */
export const runAgentExecutors: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('helix_run_agent_executors')
      .addColumn('run_id', 'varchar(210)', (c) => c.notNull())
      .addColumn('executor_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('recorded_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('helix_run_agent_executors_pk', ['run_id', 'executor_hash'])
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('helix_run_agent_executors').execute();
  },
};
