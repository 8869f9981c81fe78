import type { Insertable, Kysely, Selectable } from 'kysely';
import { compiledOnce } from './compiledOnce.js';
import type { EventKind } from '../../domain/events.js';
import type { EventRepository } from '../port.js';
import type { AgentRunEventsTable, HelixDatabase } from '../schema.js';
import { toMillis } from './columns.js';

type EventRow = Selectable<AgentRunEventsTable>;

// Compiled once (compiledOnce.ts): one event is the common append, and every events page reads this way.
const insertEvent = compiledOnce((db, row: Insertable<AgentRunEventsTable>) =>
  db.insertInto('helix_agent_run_events').values(row),
);
const selectPage = compiledOnce((db, runId: string, afterSeq: number, limit: number) =>
  db
    .selectFrom('helix_agent_run_events')
    .selectAll()
    .where('run_id', '=', runId)
    .where('seq', '>', afterSeq)
    .orderBy('seq', 'asc')
    .limit(limit),
);

export const eventRepository = (db: Kysely<HelixDatabase>): EventRepository => ({
  async append(runId, version, firstSeq, events, at) {
    const rows = events.map((event, index) => ({
      run_id: runId,
      seq: firstSeq + index,
      kind: event.kind,
      version,
      data: JSON.stringify(event.data),
      created_at: at,
    }));
    const [only] = rows;
    if (only === undefined) return;
    if (rows.length === 1) await insertEvent(db, only);
    else await db.insertInto('helix_agent_run_events').values(rows).execute();
  },
  async list(runId, afterSeq, limit) {
    const { rows } = await selectPage<EventRow>(db, runId, afterSeq, limit);
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
