import { PostgresDialect } from 'kysely';

/** The part of PGlite's API this adapter uses; typed structurally so production code never loads it. */
export interface PgliteLike {
  query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[]; affectedRows?: number }>;
  close(): Promise<void>;
}

/**
 * Runs Kysely's PostgreSQL dialect on PGlite (in-process PostgreSQL) for tests that need no server.
 * PGlite has one connection, so the pool hands it out to one holder at a time: that keeps a
 * transaction's statements together exactly as a real pooled connection would.
 */
export const createPgliteDialect = (pglite: PgliteLike): PostgresDialect => {
  let holder: Promise<void> = Promise.resolve();
  const client = {
    async query(sqlText: string, params: unknown[]) {
      const result = await pglite.query<Record<string, unknown>>(sqlText, params);
      const command = sqlText.trimStart().split(/\s+/, 1)[0]?.toUpperCase() ?? '';
      return { command, rowCount: result.affectedRows ?? 0, rows: result.rows };
    },
    release: (): void => undefined,
  };
  const pool = {
    async connect() {
      let release!: () => void;
      const previous = holder;
      holder = new Promise<void>((resolve) => (release = resolve));
      await previous;
      return { ...client, release };
    },
    async end() {
      await pglite.close();
    },
  };
  return new PostgresDialect({ pool: pool as never });
};
