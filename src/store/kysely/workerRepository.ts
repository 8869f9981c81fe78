import type { Kysely } from 'kysely';
import type { WorkerRepository } from '../port.js';
import type { HelixDatabase } from '../schema.js';
import { toMillis, toMillisOrNull } from './columns.js';

export const workerRepository = (db: Kysely<HelixDatabase>): WorkerRepository => ({
  async upsert(w) {
    await db
      .insertInto('helix_workers')
      .values({
        worker_id: w.workerId,
        host: w.host,
        pid: w.pid,
        started_at: w.startedAt,
        heartbeat_at: w.heartbeatAt,
        stopped_at: w.stoppedAt,
      })
      .onConflict((oc) => oc.column('worker_id').doUpdateSet({ heartbeat_at: w.heartbeatAt, stopped_at: w.stoppedAt }))
      .execute();
  },
  async heartbeat(workerId, at) {
    await db.updateTable('helix_workers').set({ heartbeat_at: at }).where('worker_id', '=', workerId).execute();
  },
  async stop(workerId, at) {
    await db.updateTable('helix_workers').set({ stopped_at: at }).where('worker_id', '=', workerId).execute();
  },
  async get(workerId) {
    const row = await db.selectFrom('helix_workers').selectAll().where('worker_id', '=', workerId).executeTakeFirst();
    if (row === undefined) return undefined;
    return {
      workerId: row.worker_id,
      host: row.host,
      pid: Number(row.pid),
      startedAt: toMillis(row.started_at),
      heartbeatAt: toMillis(row.heartbeat_at),
      stoppedAt: toMillisOrNull(row.stopped_at),
    };
  },
});
