// A tiny flying-squid server for tests and local trials: superflat, offline mode, 127.0.0.1 only.
// It prints one JSON line `{"port":N}` once it accepts players (docs/spec/shared-live-room-requirements.md
// §23.2: a client that joins before waitForReady is kicked with "Server is still starting!").
//
//   tsx src/flatWorldServer.ts            listens on a free port
//   MINECRAFT_PORT=25565 MINECRAFT_GIVE="diamond 3" tsx src/flatWorldServer.ts
//
// MINECRAFT_GIVE gives every player who joins those items ("dirt 4,diamond_pickaxe"), so tests can
// read a known inventory.
//
// Tests ask the server for its own view through stdin, one query a line, one JSON answer a line:
//   position <username>   ->  {"position_of":"<username>","position":{"x":..,"y":..,"z":..}}
//   block <x> <y> <z>     ->  {"block_at":{"x":..,"y":..,"z":..},"name":"air"}
// and every chat or command packet a player sends is printed as {"chat_packet":"<packet>","from":"<username>"},
// so a test can assert that the connector never sends text to the game (MC-11).
// MINECRAFT_WORLD_DIR keeps the world in a folder the caller owns (and removes); by default the
// world lives in a temporary folder removed on SIGINT/SIGTERM.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MINECRAFT_PROTOCOL_VERSION } from './protocolVersion.js';

/** The part of flying-squid's server this script uses (the package ships no types). */
interface Vec3Like {
  x: number;
  y: number;
  z: number;
  clone(): Vec3Like;
  set(x: number, y: number, z: number): Vec3Like;
}
interface FlyingSquidPlayer {
  username: string;
  position: Vec3Like;
  on(event: 'spawned', listener: () => void): void;
  _client: { on(event: string, listener: () => void): void };
}
interface FlyingSquidServer {
  players: FlyingSquidPlayer[];
  overworld: { getBlock(position: Vec3Like): Promise<{ name: string }> };
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
const CHAT_PACKETS = ['chat', 'chat_message', 'chat_command', 'chat_command_signed'] as const;

const gifts = (process.env.MINECRAFT_GIVE ?? '').split(',').filter((gift) => gift !== '');
if (!gifts.every((gift) => GIVE_PATTERN.test(gift))) {
  throw new Error('MINECRAFT_GIVE must look like "diamond 3" or "dirt 4,diamond_pickaxe"');
}
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
    for (const gift of gifts) void server.handleCommand(`give ${player.username} ${gift}`);
  });
  for (const packet of CHAT_PACKETS) {
    player._client.on(packet, () =>
      process.stdout.write(`${JSON.stringify({ chat_packet: packet, from: player.username })}\n`),
    );
  }
});

const answer = async (line: string): Promise<unknown> => {
  const [query, ...args] = line.trim().split(/\s+/);
  if (query === 'position') {
    const player = server.players.find((p) => p.username === args[0]);
    if (player === undefined) return { position_of: args[0], position: null };
    const { x, y, z } = player.position;
    return { position_of: player.username, position: { x, y, z } };
  }
  const [x, y, z] = args.map(Number);
  const anyone = server.players[0];
  if (query !== 'block' || x === undefined || y === undefined || z === undefined || anyone === undefined) {
    return { error: 'unknown query' };
  }
  const block = await server.overworld.getBlock(anyone.position.clone().set(x, y, z));
  return { block_at: { x, y, z }, name: block.name };
};
createInterface({ input: process.stdin }).on('line', (line) => {
  void answer(line).then((reply) => process.stdout.write(`${JSON.stringify(reply)}\n`));
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
