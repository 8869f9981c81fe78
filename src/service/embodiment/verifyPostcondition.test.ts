import { describe, expect, it } from 'vitest';
import { ActionSchema } from '../../api/environmentActionSchemas.js';
import { verifyPostcondition, verifyStationary } from './verifyPostcondition.js';

const target = { x: 10, y: -60, z: 4 };
const action = (input: object) => ActionSchema.parse(input);

describe('MC-12: a postcondition verifies only when it shows the issued action done', () => {
  it('navigate_to: within range of the target, by the report and by the reported position', () => {
    const nav = action({ kind: 'navigate_to', target, range: 2 });
    const at = (position: object, distance: number | null) =>
      ({ kind: 'position' as const, position, distance_to_target: distance }) as never;
    expect(verifyPostcondition(nav, at({ x: 11, y: -60, z: 4 }, 1))).toBe(true);
    expect(verifyPostcondition(nav, at({ x: 11, y: -60, z: 4 }, 2.5))).toBe(false);
    expect(verifyPostcondition(nav, at({ x: 40, y: -60, z: 4 }, 1))).toBe(false);
    expect(verifyPostcondition(nav, at({ x: 11, y: -60, z: 4 }, null))).toBe(false);
    expect(verifyPostcondition(nav, null)).toBe(false);
  });

  it('mine needs air at the target; place needs the placed item there; interact a block report at the target', () => {
    expect(verifyPostcondition(action({ kind: 'mine', target }), { kind: 'block', target, block: 'air' })).toBe(true);
    expect(verifyPostcondition(action({ kind: 'mine', target }), { kind: 'block', target, block: 'stone' })).toBe(
      false,
    );
    const elsewhere = { x: 0, y: -60, z: 0 };
    expect(
      verifyPostcondition(action({ kind: 'mine', target }), { kind: 'block', target: elsewhere, block: 'air' }),
    ).toBe(false);
    const place = action({ kind: 'place', target, item: 'dirt' });
    expect(verifyPostcondition(place, { kind: 'block', target, block: 'dirt' })).toBe(true);
    expect(verifyPostcondition(place, { kind: 'block', target, block: 'air' })).toBe(false);
    expect(verifyPostcondition(action({ kind: 'interact', target }), { kind: 'block', target, block: 'lever' })).toBe(
      true,
    );
  });

  it('look, hotbar and equip must show the asked state', () => {
    expect(verifyPostcondition(action({ kind: 'look_at', target }), { kind: 'look', yaw: 1, pitch: 0 })).toBe(true);
    expect(verifyPostcondition(action({ kind: 'hotbar_select', slot: 3 }), { kind: 'hotbar', slot: 3 })).toBe(true);
    expect(verifyPostcondition(action({ kind: 'hotbar_select', slot: 3 }), { kind: 'hotbar', slot: 4 })).toBe(false);
    const equip = action({ kind: 'equip', item: 'diamond_pickaxe', destination: 'hand' });
    expect(verifyPostcondition(equip, { kind: 'equipped', destination: 'hand', item: 'diamond_pickaxe' })).toBe(true);
    expect(verifyPostcondition(equip, { kind: 'equipped', destination: 'hand', item: null })).toBe(false);
    expect(verifyPostcondition(action({ kind: 'jump' }), { kind: 'hotbar', slot: 0 })).toBe(false);
  });

  it('M-03: a stop counts only as stationary under 0.05 blocks (a graceful stop drifted 3.48)', () => {
    expect(verifyStationary({ kind: 'stationary', drift_blocks: 0.01, window_ticks: 5 })).toBe(true);
    expect(verifyStationary({ kind: 'stationary', drift_blocks: 0.05, window_ticks: 5 })).toBe(false);
    expect(verifyStationary({ kind: 'stationary', drift_blocks: 3.48, window_ticks: 5 })).toBe(false);
    expect(verifyStationary({ kind: 'hotbar', slot: 1 })).toBe(false);
    expect(verifyStationary(null)).toBe(false);
  });
});
