import Database from 'better-sqlite3';
import type { TestHelix } from './harness.js';

/** What the store durably holds for one run: the fields a bounded probe run is judged by. */
export interface StoredRun {
  readonly runId: string;
  readonly lifecycle: string;
  readonly maxSteps: number;
  readonly expiresInSeconds: number;
  /** expires_at minus created_at, in milliseconds. */
  readonly lifetimeMs: number;
  readonly stepsUsed: number;
  readonly eventKinds: readonly string[];
}

/**
 * Every run in a SQLite-backed test Helix, read from the durable rows (the API has no run list).
 * The id comes from the file; the rest through the store port, so a changed column layout cannot
 * make the test pass by accident.
 */
export const storedRuns = async (h: TestHelix): Promise<StoredRun[]> => {
  const location = h.testStore.location;
  if (location === undefined || location.includes('://')) throw new Error('storedRuns needs the sqlite store flavour');
  const db = new Database(location, { readonly: true, fileMustExist: true });
  const ids = (() => {
    try {
      return (db.prepare('SELECT run_id FROM helix_agent_runs ORDER BY run_id').all() as { run_id: string }[]).map(
        (r) => r.run_id,
      );
    } finally {
      db.close();
    }
  })();
  return Promise.all(
    ids.map(async (runId) => {
      const run = (await h.testStore.store.read.runs.get(runId))!;
      const events = await h.testStore.store.read.events.list(runId, 0, 200);
      return {
        runId,
        lifecycle: run.lifecycle,
        maxSteps: run.budget.max_steps,
        expiresInSeconds: run.budget.expires_in_seconds,
        lifetimeMs: run.expiresAt - run.createdAt,
        stepsUsed: run.stepsUsed,
        eventKinds: events.map((e) => e.kind),
      };
    }),
  );
};
