/**
 * A room observation rendered as short factual sentences, one section each, that an extractive
 * answer can quote verbatim (docs/rooms.md "Bound room evidence"). The payload is the connector's
 * snapshot (connectors/minecraft/src/wire.ts `snapshot`) or a probe result; it is read loosely,
 * section by section, so a section the producer left out or malformed is skipped, not fatal.
 * Every sentence passes credential redaction again, although ingress already redacted the payload.
 */
import { z } from 'zod';
import { redactCredentialText } from '../../domain/credentialShape.js';

export interface ObservationSection {
  /** Stable section name, part of the artifact's locator: `player`, `inventory`, ... */
  readonly section: string;
  readonly title: string;
  readonly text: string;
}

const name = z.string().min(1).max(200);
const coordinate = z.number().finite();
const vec3 = z.object({ x: coordinate, y: coordinate, z: coordinate });
const items = z.array(z.object({ slot: z.number().int(), name, count: z.number().int() })).max(256);

const PLAYER = z.object({ username: name, position: vec3, dimension: name, game_mode: name.optional() });
const VITALS = z.object({ health: z.number(), food: z.number(), saturation: z.number().nullable().optional() });
const INVENTORY = z.object({ items });
const NEARBY_BLOCKS = z.object({
  radius: z.number(),
  standing_on: name.nullable(),
  counts: z.array(z.object({ name, count: z.number().int() })).max(256),
});
const NEARBY_ENTITIES = z.array(z.object({ type: name, name, distance: z.number() })).max(256);
const TIME = z.object({ time_of_day: z.number().int(), day: z.number().int(), is_day: z.boolean() });
const PROBE_RESULT = z.object({
  probe_type: name,
  status: name,
  result: z.object({ inventory: INVENTORY }).nullable(),
});

/** One decimal place at most: positions are fractional, counts are not. */
const num = (value: number): string => String(Math.round(value * 10) / 10);

/** `whose`: `player helix_probe`, or for a probe `the checked player`. */
const inventorySentence = (whose: string, inventory: z.infer<typeof INVENTORY>): string =>
  inventory.items.length === 0
    ? `The inventory of ${whose} is empty.`
    : `Inventory of ${whose}: ${inventory.items.map((i) => `${i.name} ×${i.count} (slot ${i.slot})`).join('; ')}.`;

const section = (key: string, title: string, text: string): ObservationSection => ({
  section: key,
  title,
  text: redactCredentialText(text),
});

type Renderer = (value: unknown, player: string) => ObservationSection | undefined;

/** Each snapshot section and how it reads; a section whose shape does not parse is left out. */
const SNAPSHOT_SECTIONS: readonly [string, Renderer][] = [
  [
    'player',
    (value) => {
      const p = PLAYER.safeParse(value);
      if (!p.success) return undefined;
      const { username, position, dimension, game_mode } = p.data;
      const mode = game_mode === undefined ? '' : `, in ${game_mode} mode`;
      const where = `x ${num(position.x)}, y ${num(position.y)}, z ${num(position.z)} in ${dimension}`;
      return section('player', 'Player position', `Player ${username} is at ${where}${mode}.`);
    },
  ],
  [
    'vitals',
    (value, player) => {
      const v = VITALS.safeParse(value);
      if (!v.success) return undefined;
      const saturation = v.data.saturation == null ? '' : `, saturation ${num(v.data.saturation)}`;
      const text = `Player ${player} has health ${num(v.data.health)}, food ${num(v.data.food)}${saturation}.`;
      return section('vitals', 'Player vitals', text);
    },
  ],
  [
    'inventory',
    (value, player) => {
      const i = INVENTORY.safeParse(value);
      return i.success
        ? section('inventory', 'Player inventory', inventorySentence(`player ${player}`, i.data))
        : undefined;
    },
  ],
  [
    'nearby_blocks',
    (value, player) => {
      const b = NEARBY_BLOCKS.safeParse(value);
      if (!b.success) return undefined;
      const standing = b.data.standing_on === null ? 'nothing' : b.data.standing_on;
      const counts = b.data.counts.map((c) => `${c.name} ×${c.count}`).join('; ') || 'none';
      const text = `Player ${player} stands on ${standing}; blocks within ${num(b.data.radius)}: ${counts}.`;
      return section('nearby_blocks', 'Nearby blocks', text);
    },
  ],
  [
    'nearby_entities',
    (value, player) => {
      const e = NEARBY_ENTITIES.safeParse(value);
      if (!e.success) return undefined;
      const list = e.data.map((x) => `${x.name} (${x.type}) at distance ${num(x.distance)}`).join('; ');
      const text = list === '' ? `No entities are near player ${player}.` : `Entities near player ${player}: ${list}.`;
      return section('nearby_entities', 'Nearby entities', text);
    },
  ],
  [
    'time',
    (value) => {
      const t = TIME.safeParse(value);
      if (!t.success) return undefined;
      const text = `Time of day ${t.data.time_of_day} (day ${t.data.day}, ${t.data.is_day ? 'daytime' : 'night'}).`;
      return section('time', 'World time', text);
    },
  ],
];

const asRecord = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** A snapshot payload (the bare snapshot, or a world event carrying one) as its sections. */
export const snapshotSections = (payload: unknown): ObservationSection[] => {
  const outer = asRecord(payload);
  const snapshot = 'snapshot' in outer ? asRecord(outer.snapshot) : outer;
  const player = PLAYER.safeParse(snapshot.player);
  const username = player.success ? player.data.username : 'unknown';
  return SNAPSHOT_SECTIONS.flatMap(([key, render]) => render(snapshot[key], username) ?? []);
};

/** A completed inventory probe's result; nothing when the probe returned no inventory. */
export const probeResultSections = (payload: unknown): ObservationSection[] => {
  const parsed = PROBE_RESULT.safeParse(payload);
  if (!parsed.success || parsed.data.result === null) return [];
  return [
    section('inventory', 'Inventory check', inventorySentence('the checked player', parsed.data.result.inventory)),
  ];
};
