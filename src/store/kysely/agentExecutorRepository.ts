import type { Kysely } from 'kysely';
import type { AgentExecutorRepository } from '../agentExecutorPort.js';
import type { HelixDatabase } from '../schema.js';

export const agentExecutorRepository = (db: Kysely<HelixDatabase>): AgentExecutorRepository => ({
  async record(runId, executorHash, at) {
    await db
      .insertInto('helix_run_agent_executors')
      .values({ run_id: runId, executor_hash: executorHash, recorded_at: at })
      .onConflict((oc) => oc.columns(['run_id', 'executor_hash']).doNothing())
      .execute();
  },
  async executed(runId, executorHash) {
    const row = await db
      .selectFrom('helix_run_agent_executors')
      .select('run_id')
      .where('run_id', '=', runId)
      .where('executor_hash', '=', executorHash)
      .executeTakeFirst();
    return row !== undefined;
  },
});
