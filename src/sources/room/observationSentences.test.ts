import { describe, expect, it } from 'vitest';
import { probeResultSections, snapshotSections } from './observationSentences.js';

const SNAPSHOT = {
  player: {
    username: 'helix_probe',
    position: { x: 0.5, y: 5, z: -12.345 },
    yaw: 0,
    pitch: 0,
    dimension: 'minecraft:overworld',
    game_mode: 'survival',
  },
  vitals: { health: 20, food: 18, saturation: null },
  inventory: {
    items: [
      { slot: 36, name: 'diamond', count: 3 },
      { slot: 37, name: 'dirt', count: 4 },
    ],
  },
  nearby_blocks: { radius: 2, standing_on: 'grass_block', counts: [{ name: 'stone', count: 12 }] },
  nearby_entities: [{ type: 'mob', name: 'cow', distance: 3.21, position: { x: 1, y: 5, z: 3 } }],
  time: { time_of_day: 6000, day: 0, is_day: true },
};

describe('room observation sentences', () => {
  it('renders each snapshot section as one quotable sentence', () => {
    expect(snapshotSections(SNAPSHOT)).toEqual([
      {
        section: 'player',
        title: 'Player position',
        text: 'Player helix_probe is at x 0.5, y 5, z -12.3 in minecraft:overworld, in survival mode.',
      },
      { section: 'vitals', title: 'Player vitals', text: 'Player helix_probe has health 20, food 18.' },
      {
        section: 'inventory',
        title: 'Player inventory',
        text: 'Inventory of player helix_probe: diamond ×3 (slot 36); dirt ×4 (slot 37).',
      },
      {
        section: 'nearby_blocks',
        title: 'Nearby blocks',
        text: 'Player helix_probe stands on grass_block; blocks within 2: stone ×12.',
      },
      {
        section: 'nearby_entities',
        title: 'Nearby entities',
        text: 'Entities near player helix_probe: cow (mob) at distance 3.2.',
      },
      { section: 'time', title: 'World time', text: 'Time of day 6000 (day 0, daytime).' },
    ]);
  });

  it('reads a world event carrying the snapshot too, and skips malformed or missing sections', () => {
    const event = {
      event_id: 'e',
      kind: 'snapshot',
      snapshot: { ...SNAPSHOT, vitals: { health: 'full' }, time: undefined },
    };
    expect(snapshotSections(event).map((s) => s.section)).toEqual([
      'player',
      'inventory',
      'nearby_blocks',
      'nearby_entities',
    ]);
    expect(snapshotSections(null)).toEqual([]);
    expect(snapshotSections({ inventory: { items: [] } })).toEqual([
      { section: 'inventory', title: 'Player inventory', text: 'The inventory of player unknown is empty.' },
    ]);
  });

  it('renders a completed probe result; a result-less answer renders nothing', () => {
    const payload = {
      probe_type: 'x',
      status: 'completed',
      result: { inventory: { items: [{ slot: 0, name: 'torch', count: 64 }] } },
    };
    expect(probeResultSections(payload)).toEqual([
      { section: 'inventory', title: 'Inventory check', text: 'Inventory of the checked player: torch ×64 (slot 0).' },
    ]);
    expect(probeResultSections({ probe_type: 'x', status: 'unsupported', result: null })).toEqual([]);
  });

  it('SLR-08: redacts a credential-shaped value a payload still carries', () => {
    const leaked = { ...SNAPSHOT, player: { ...SNAPSHOT.player, username: `hlx_${'k'.repeat(30)}` } };
    const texts = snapshotSections(leaked).map((s) => s.text);
    expect(texts.join(' ')).not.toContain('hlx_k');
    expect(texts[0]).toBe('Player [redacted] is at x 0.5, y 5, z -12.3 in minecraft:overworld, in survival mode.');
  });
});
