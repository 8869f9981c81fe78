import { emptyOutcome } from '../domain/turn.js';
import type { TurnExecutor } from './executor.js';

/**
 * The default executor until a research executor is configured: it calls no tools and reports,
 * truthfully, that it found no evidence. A run driven by it never completes by itself.
 */
export const noEvidenceExecutor: TurnExecutor = {
  provider: 'helix.no_evidence',
  async executeTurn() {
    return emptyOutcome({ unresolvedRequirements: ['no_evidence_found'] });
  },
};
