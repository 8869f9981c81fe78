/**
 * The rows the growth phase copies: one run as real Helix writes it. Helix is started in this
 * process on a scratch SQLite file, one run is started and continued over REST until it has at
 * least `minEvents` events, and its `helix_agent_runs` row and event rows are read back raw.
 * Synthetic runs are then these rows with new ids, so their sizes and JSON shapes are Helix's own.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { continueRun, idempotencyKeys, startRun } from './apiClient.js';
import { startBenchHelix } from './benchHelix.js';
import type { EventRow } from './floorStore.js';

/** A `helix_agent_runs` row, column by column. */
export type RunColumns = Readonly<Record<string, string | number | null>>;

export interface RunTemplate {
  readonly run: RunColumns;
  /** The run's first events, seq 1 upwards. */
  readonly events: readonly EventRow[];
}

export const captureRunTemplate = async (minEvents: number): Promise<RunTemplate> => {
  const dir = await mkdtemp(join(tmpdir(), 'helix-bench-template-'));
  try {
    const path = join(dir, 'template.db');
    const server = await startBenchHelix(path);
    let runId: string;
    try {
      const nextKey = idempotencyKeys('template');
      let run = await startRun(server.ready, nextKey());
      // Each continue adds four events to the start's one.
      while (1 + 4 * ((run.version - 1) / 2) < minEvents) run = await continueRun(server.ready, run, nextKey());
      runId = run.runId;
    } finally {
      await server.close();
    }
    const db = new Database(path, { readonly: true });
    try {
      const run = db.prepare('select * from helix_agent_runs where run_id = ?').get(runId) as RunColumns | undefined;
      const events = db
        .prepare('select * from helix_agent_run_events where run_id = ? order by seq limit ?')
        .all(runId, minEvents) as EventRow[];
      if (run === undefined || events.length < minEvents)
        throw new Error(`template run ${runId}: expected a row and ${minEvents} events, found ${events.length}`);
      return { run, events };
    } finally {
      db.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};
