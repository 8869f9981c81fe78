/** Child process: the MCP floor (mcpFloorApp.ts) on 127.0.0.1; it keeps no data, so the SQLite path goes unused. */
import type { AddressInfo } from 'node:net';
import { LOOPBACK, runChildServer } from './childServer.js';
import { buildMcpFloorApp } from './mcpFloorApp.js';

runChildServer(async () => {
  const app = buildMcpFloorApp();
  await app.listen({ host: LOOPBACK, port: 0 });
  const { port } = app.server.address() as AddressInfo;
  // No bearer is checked; the load generator sends one anyway, so both servers receive requests of the same shape.
  return { ready: { url: `http://${LOOPBACK}:${port}`, token: 'mcp-floor-unchecked' }, close: () => app.close() };
});
