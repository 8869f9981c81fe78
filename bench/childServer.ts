/**
 * The child side of a bench target: each server under test runs in its own process so that the
 * load generator and the server do not share one event loop (on two cores, sharing distorts
 * both). Helix and the floor use this same harness, so the comparison stays fair.
 *
 * Protocol: the child is given a SQLite path as its only argument, prints one JSON line
 * `{"url":…,"token":…}` on stdout once it listens, and closes cleanly on SIGTERM or SIGINT.
 */

/** The only address a bench server may listen on. */
export const LOOPBACK = '127.0.0.1';

export interface TargetReady {
  readonly url: string;
  /** Bearer token the load generator sends. */
  readonly token: string;
}

export interface ChildServer {
  readonly ready: TargetReady;
  close(): Promise<void>;
}

export const runChildServer = (start: (databasePath: string) => Promise<ChildServer>): void => {
  const databasePath = process.argv[2];
  if (databasePath === undefined) {
    process.stderr.write('usage: <server>.ts <sqlite-path>\n');
    process.exit(2);
  }
  start(databasePath).then(
    (server) => {
      let closing = false;
      const stop = () => {
        if (closing) return;
        closing = true;
        server.close().then(
          () => process.exit(0),
          (err: unknown) => {
            process.stderr.write(`bench server failed to close: ${String(err)}\n`);
            process.exit(1);
          },
        );
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
      process.stdout.write(`${JSON.stringify(server.ready)}\n`);
    },
    (err: unknown) => {
      process.stderr.write(
        `bench server failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
      process.exit(1);
    },
  );
};
