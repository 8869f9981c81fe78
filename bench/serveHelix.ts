/**
 * Child process: the real Helix server (benchHelix.ts) on 127.0.0.1, on the fresh SQLite file it is
 * given, or on the PostgreSQL database in HELIX_DATABASE_URL when the parent sets one (target.ts
 * sets it for the replicas phase only, and strips any inherited value otherwise).
 */
import { startBenchHelix } from './benchHelix.js';
import { runChildServer } from './childServer.js';

runChildServer((databasePath) => {
  const url = process.env.HELIX_DATABASE_URL;
  return startBenchHelix(url === undefined || url === '' ? databasePath : url);
});
