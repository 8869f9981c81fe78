import { PostgresDialect } from 'kysely';
import pg from 'pg';

export interface PostgresOptions {
  readonly connectionString: string;
  readonly maxConnections?: number;
}

export const createPostgresDialect = ({ connectionString, maxConnections = 10 }: PostgresOptions): PostgresDialect =>
  new PostgresDialect({
    pool: new pg.Pool({ connectionString, max: maxConnections, connectionTimeoutMillis: 10_000 }),
  });
