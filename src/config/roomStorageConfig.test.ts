import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { DEFAULT_ROOM_STORAGE_LIMITS } from '../domain/roomStorage.js';

// Issue 27 item 4: the room storage bounds (docs/configuration.md "Room storage bounds").
describe('room storage configuration', () => {
  it('defaults to bounded limits: 1,000 observations per source and kind, 128 MiB a room, a one-hour, 36,000-entry ledger', () => {
    expect(loadConfig({}).roomStorage).toEqual({
      observationsPerSource: 1_000,
      roomQuotaBytes: 128 * 1024 * 1024,
      replayWindowMs: 3_600_000,
      ledgerPerSource: 36_000,
    });
    expect(loadConfig({}).roomStorage).toEqual(DEFAULT_ROOM_STORAGE_LIMITS);
  });

  it('reads each variable, and a value that would turn a bound off or is not a whole number stops start-up naming it', () => {
    const config = loadConfig({
      HELIX_ROOM_OBSERVATIONS_PER_SOURCE: '10',
      HELIX_ROOM_STORAGE_QUOTA_BYTES: '1048576',
      HELIX_ROOM_INGRESS_REPLAY_WINDOW_MS: '600000',
      HELIX_ROOM_INGRESS_LEDGER_PER_SOURCE: '500',
    });
    expect(config.roomStorage).toEqual({
      observationsPerSource: 10,
      roomQuotaBytes: 1_048_576,
      replayWindowMs: 600_000,
      ledgerPerSource: 500,
    });
    const refused: Record<string, string[]> = {
      HELIX_ROOM_OBSERVATIONS_PER_SOURCE: ['0', '1000001', 'many', '-1'],
      HELIX_ROOM_STORAGE_QUOTA_BYTES: ['0', '1023', '1e9', '64MiB'],
      HELIX_ROOM_INGRESS_REPLAY_WINDOW_MS: ['0', '59999', '604800001', '1.5'],
      HELIX_ROOM_INGRESS_LEDGER_PER_SOURCE: ['0', '99', '10000001', 'off'],
    };
    for (const [name, values] of Object.entries(refused))
      for (const bad of values) expect(() => loadConfig({ [name]: bad }), `${name}=${bad}`).toThrow(new RegExp(name));
  });
});
