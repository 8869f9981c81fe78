import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';

// ENV-10, ING-05 (docs/spec/shared-live-room-requirements.md §14, §8; docs/configuration.md).
describe('bound room configuration', () => {
  it('ENV-10: HELIX_AGENT_DATABASE_SCOPES accepts the two room lanes; an unknown id still stops start-up', () => {
    const config = loadConfig({ HELIX_AGENT_DATABASE_SCOPES: 'bound_room_evidence,bound_room_environment_probe' });
    expect([...config.enabledScopes]).toEqual(['bound_room_evidence', 'bound_room_environment_probe']);
    expect(() => loadConfig({ HELIX_AGENT_DATABASE_SCOPES: 'bound_room_everything' })).toThrow(/bound_room_everything/);
  });

  it('ING-05: HELIX_BOUND_ROOM_EVIDENCE_MAX_AGE_MS defaults to a minute and is bounded', () => {
    expect(loadConfig({}).sources.boundRoom.maxAgeMs).toBe(60_000);
    expect(loadConfig({ HELIX_BOUND_ROOM_EVIDENCE_MAX_AGE_MS: '5000' }).sources.boundRoom.maxAgeMs).toBe(5_000);
    for (const bad of ['999', '3600001', 'soon', '1.5'])
      expect(() => loadConfig({ HELIX_BOUND_ROOM_EVIDENCE_MAX_AGE_MS: bad })).toThrow(
        /HELIX_BOUND_ROOM_EVIDENCE_MAX_AGE_MS/,
      );
  });
});
