import { describe, expect, it } from 'vitest';
import { ingressUrl, LIMITS, type WorldEvent, worldEventBatchRequest } from './wire.js';

const event: WorldEvent = {
  event_id: 'event-000000000001',
  kind: 'snapshot',
  observed_at: '2026-12-01T12:00:00.000Z',
  snapshot: {
    player: {
      username: 'scout',
      position: { x: 1, y: 5, z: 2 },
      yaw: 0,
      pitch: 0,
      dimension: 'overworld',
      game_mode: 'survival',
    },
    vitals: { health: 20, food: 20, saturation: null },
    inventory: { items: [] },
    nearby_blocks: { radius: 2, standing_on: 'grass_block', counts: [{ name: 'dirt', count: 25 }] },
    nearby_entities: [],
    time: { time_of_day: 6000, day: 0, is_day: true },
  },
};
const batch = (events: unknown[], extra: Record<string, unknown> = {}) => ({
  schema: 'helix.environment_world_event_batch.v1',
  request_id: 'request-0000000001',
  producer_epoch: 'epoch-000000000001',
  sent_at: '2026-12-01T12:00:01.000Z',
  world_id: 'minecraft:home',
  events,
  ...extra,
});

describe('the world-event batch schema', () => {
  it('accepts a bounded batch and refuses an empty one, one over the bound, and unknown fields', () => {
    expect(worldEventBatchRequest.safeParse(batch([event])).success).toBe(true);
    expect(worldEventBatchRequest.safeParse(batch([])).success).toBe(false);
    expect(worldEventBatchRequest.safeParse(batch(Array(LIMITS.maxBatchEvents + 1).fill(event))).success).toBe(false);
    expect(worldEventBatchRequest.safeParse(batch([event], { token: 'x' })).success).toBe(false);
    expect(
      worldEventBatchRequest.safeParse(batch([{ ...event, snapshot: { ...event.snapshot, extra: 1 } }])).success,
    ).toBe(false);
  });

  it('refuses a short request identity, a world outside minecraft:, and a local-time timestamp', () => {
    expect(worldEventBatchRequest.safeParse(batch([event], { request_id: 'r1' })).success).toBe(false);
    expect(worldEventBatchRequest.safeParse(batch([event], { world_id: 'synthetic-game:x' })).success).toBe(false);
    expect(worldEventBatchRequest.safeParse(batch([event], { sent_at: '2026-12-01T12:00:01+02:00' })).success).toBe(
      false,
    );
  });
});

describe('ingressUrl', () => {
  it('keeps a base path and escapes the binding id', () => {
    expect(ingressUrl('https://h.example/helix/', 'b/1', 'probes/result')).toBe(
      'https://h.example/helix/api/room-ingress/v1/bindings/b%2F1/probes/result',
    );
  });
});
