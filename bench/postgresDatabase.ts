/**
 * A throwaway PostgreSQL database for the replicas phase, created and dropped through the admin
 * URL in HELIX_BENCH_POSTGRES_URL. The server must be on loopback, like everything the bench talks to.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export interface ScratchDatabase {
  /** The new database's URL, with the admin URL's credentials. */
  readonly url: string;
  /** `server_version`, for the report. */
  readonly serverVersion: string;
  drop(): Promise<void>;
}

/** Why `adminUrl` cannot be used, or undefined when it can. */
export const unusableAdminUrl = (adminUrl: string): string | undefined => {
  let url: URL;
  try {
    url = new URL(adminUrl);
  } catch {
    return 'HELIX_BENCH_POSTGRES_URL is not a URL';
  }
  if (!/^postgres(ql)?:$/.test(url.protocol)) return 'HELIX_BENCH_POSTGRES_URL is not a postgres:// URL';
  if (!LOOPBACK_HOSTS.has(url.hostname))
    return `HELIX_BENCH_POSTGRES_URL names ${url.hostname}; the bench only talks to loopback`;
  return undefined;
};

const withAdmin = async <T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

export const createScratchDatabase = async (adminUrl: string): Promise<ScratchDatabase> => {
  // A random name (hex only) needs no quoting and never meets an existing database.
  const name = `helix_bench_${randomBytes(6).toString('hex')}`;
  const serverVersion = await withAdmin(adminUrl, async (client) => {
    await client.query(`CREATE DATABASE ${name}`);
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    return rows[0]?.server_version ?? 'unknown';
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    serverVersion,
    // FORCE (PostgreSQL 13+) ends sessions a replica that failed to stop may have left behind.
    drop: () =>
      withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
};
