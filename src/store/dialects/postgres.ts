import { PostgresDialect } from 'kysely';
import pg from 'pg';

export interface PostgresOptions {
  readonly connectionString: string;
  readonly maxConnections?: number;
  /** Told when an idle pooled connection fails (the server restarted, failed over, or an admin ended it). */
  readonly onConnectionError?: (err: Error) => void;
}

/**
 * A pool whose idle connections may die without taking the process with them. node-postgres emits
 * `error` on the pool when an idle client's connection ends (`pg_terminate_backend`, a restart, a
 * failover); with no listener that is an unhandled 'error' event and Node exits. The pool has
 * already discarded the client, so the next query simply opens a new connection: report and go on.
 */
export const createResilientPool = (
  config: pg.PoolConfig,
  onConnectionError: (err: Error) => void = () => undefined,
): pg.Pool => {
  const pool = new pg.Pool(config);
  pool.on('error', onConnectionError);
  return pool;
};

export const createPostgresDialect = ({
  connectionString,
  maxConnections = 10,
  onConnectionError,
}: PostgresOptions): PostgresDialect =>
  new PostgresDialect({
    pool: createResilientPool(
      { connectionString, max: maxConnections, connectionTimeoutMillis: 10_000 },
      onConnectionError,
    ),
  });
