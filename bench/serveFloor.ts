/** Child process: the floor server on 127.0.0.1, over Helix's own schema in a fresh SQLite file. */
import type { AddressInfo } from 'node:net';
import { openStore } from '../src/store/openStore.js';
import { LOOPBACK, runChildServer } from './childServer.js';
import { buildFloorApp, FLOOR_TOKEN } from './floorApp.js';
import { floorStore, openFloorDatabase } from './floorStore.js';

runChildServer(async (databasePath) => {
  // Helix's migrations create the schema (tables, keys, indexes); the floor then bypasses Helix.
  const store = await openStore(databasePath);
  await store.close();
  const db = openFloorDatabase(databasePath);
  const app = buildFloorApp(floorStore(db));
  await app.listen({ host: LOOPBACK, port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return {
    ready: { url: `http://${LOOPBACK}:${port}`, token: FLOOR_TOKEN },
    async close() {
      await app.close();
      db.close();
    },
  };
});
