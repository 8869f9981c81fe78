import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { adapterFixturesEnabled } from './environmentAdapterConfig.js';

// ING-04: the fixture-only adapter is enabled only by an explicit flag, and never in production.
describe('HELIX_ENVIRONMENT_ADAPTER_FIXTURES', () => {
  it('is off unless set to 1', () => {
    expect(loadConfig({}).environmentAdapterFixtures).toBe(false);
    expect(loadConfig({ HELIX_ENVIRONMENT_ADAPTER_FIXTURES: '0' }).environmentAdapterFixtures).toBe(false);
    expect(loadConfig({ HELIX_ENVIRONMENT_ADAPTER_FIXTURES: '1' }).environmentAdapterFixtures).toBe(true);
  });

  it('stops start-up on any other value, and in production', () => {
    expect(() => loadConfig({ HELIX_ENVIRONMENT_ADAPTER_FIXTURES: 'yes' })).toThrow(/must be 1 or unset/);
    // A production configuration needs OAuth, so the production rule is checked on its own reader.
    expect(() => adapterFixturesEnabled({ HELIX_ENVIRONMENT_ADAPTER_FIXTURES: '1' }, true)).toThrow(
      /refused in production/,
    );
    expect(adapterFixturesEnabled({}, true)).toBe(false);
  });
});
