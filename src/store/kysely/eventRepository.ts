import type { Kysely } from 'kysely';
import type { EventKind } from '../../domain/events.js';
import type { EventRepository } from '../port.js';
import type { HelixDatabase } from '../schema.js';
import { toMillis } from './columns.js';

export const eventRepository = (db: Kysely<HelixDatabase>): EventRepository => ({
  async append(runId, version, firstSeq, events, at) {
    if (events.length === 0) return;
    await db
      .insertInto('helix_agent_run_events')
      .values(
        events.map((event, index) => ({
          run_id: runId,
          seq: firstSeq + index,
          kind: event.kind,
          version,
          data: JSON.stringify(event.data),
          created_at: at,
        })),
      )
      .execute();
  },
  async list(runId, afterSeq, limit) {
    const rows = await db
      .selectFrom('helix_agent_run_events')
      .selectAll()
      .where('run_id', '=', runId)
      .where('seq', '>', afterSeq)
      .orderBy('seq', 'asc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      runId: row.run_id,
      seq: Number(row.seq),
      kind: row.kind as EventKind,
      version: Number(row.version),
      data: JSON.parse(row.data) as Record<string, unknown>,
      createdAt: toMillis(row.created_at),
    }));
  },
});
