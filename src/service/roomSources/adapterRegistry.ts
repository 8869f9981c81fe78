import { createAdapterRegistry, type EnvironmentAdapterRegistry } from '../../domain/environmentAdapterRegistry.js';

/**
 * The registry room sources resolve through, built once at start-up from the configuration
 * (HelixConfig.environmentAdapterFixtures; the fixture profile is never on in production).
 */
export const roomSourceAdapters = (fixturesEnabled: boolean): EnvironmentAdapterRegistry =>
  createAdapterRegistry({ fixturesEnabled });
