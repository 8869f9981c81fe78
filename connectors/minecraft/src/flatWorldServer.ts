// A tiny flying-squid server for tests and local trials: superflat, offline mode, 127.0.0.1 only.
// It prints one JSON line `{"port":N}` once it accepts players (docs/spec/shared-live-room-requirements.md
// §23.2: a client that joins before waitForReady is kicked with "Server is still starting!").
//
//   tsx src/flatWorldServer.ts            listens on a free port
//   MINECRAFT_PORT=25565 MINECRAFT_GIVE="diamond 3" tsx src/flatWorldServer.ts
//
// MINECRAFT_GIVE gives every player who joins that item, so tests can read a known inventory.
// MINECRAFT_WORLD_DIR keeps the world in a folder the caller owns (and removes); by default the
// world lives in a temporary folder removed on SIGINT/SIGTERM.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MINECRAFT_PROTOCOL_VERSION } from './protocolVersion.js';

/** The part of flying-squid's server this script uses (the package ships no types). */
interface FlyingSquidPlayer {
  username: string;
  position: { x: number; y: number; z: number };
  on(event: 'spawned', listener: () => void): void;
}
interface FlyingSquidServer {
  on(event: 'newPlayer', listener: (player: FlyingSquidPlayer) => void): void;
  waitForReady(timeoutMs: number): Promise<unknown>;
  handleCommand(command: string): Promise<void>;
  listeningPort?: number;
  destroy(): Promise<unknown>;
}
interface FlyingSquid {
  createMCServer(options: Record<string, unknown>): FlyingSquidServer;
}

const READY_TIMEOUT_MS = 30_000;
const GIVE_PATTERN = /^[a-z_]{1,64}( [1-9][0-9]?)?$/;

const give = process.env.MINECRAFT_GIVE ?? '';
if (give !== '' && !GIVE_PATTERN.test(give)) throw new Error('MINECRAFT_GIVE must look like "diamond 3"');
const ownWorldFolder = process.env.MINECRAFT_WORLD_DIR === undefined;
const worldFolder = process.env.MINECRAFT_WORLD_DIR ?? mkdtempSync(join(tmpdir(), 'helix-mc-world-'));
const flyingSquid = createRequire(import.meta.url)('flying-squid') as FlyingSquid;
const server = flyingSquid.createMCServer({
  motd: 'helix connector test',
  host: '127.0.0.1',
  port: Number(process.env.MINECRAFT_PORT ?? 0),
  'max-players': 4,
  'online-mode': false,
  logging: false,
  gameMode: 0,
  difficulty: 0,
  worldFolder,
  generation: { name: 'superflat', options: { worldHeight: 80 } },
  kickTimeout: 10_000,
  plugins: {},
  modpe: false,
  'view-distance': 2,
  'player-list-text': { header: 'helix', footer: 'test' },
  'everybody-op': false,
  'max-entities': 10,
  version: MINECRAFT_PROTOCOL_VERSION,
});

// One JSON line per spawn, with the server's own view of the position, so a test can compare it
// with what the connector reports.
server.on('newPlayer', (player) => {
  player.on('spawned', () => {
    const { x, y, z } = player.position;
    process.stdout.write(`${JSON.stringify({ spawned: player.username, position: { x, y, z } })}\n`);
    if (give !== '') void server.handleCommand(`give ${player.username} ${give}`);
  });
});

const stop = async (): Promise<void> => {
  await server.destroy().catch(() => undefined);
  if (ownWorldFolder) rmSync(worldFolder, { recursive: true, force: true });
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());

await server.waitForReady(READY_TIMEOUT_MS);
process.stdout.write(`${JSON.stringify({ port: server.listeningPort })}\n`);
