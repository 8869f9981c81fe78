import { emptyOutcome, type TurnOutcome } from '../../src/domain/turn.js';
import { scriptedArtifact, scriptedCandidate } from '../../src/solver/scriptedExecutor.js';

export const LIBRARY = { capabilityId: 'research-library.search', family: 'research_library_evidence' };
export const LIBRARY_SCOPES = 'helix.agent_runs.read helix.agent_runs.write helix.data.research_library.read';

/** A turn that finds two passages and proposes an answer citing them: enough to complete a research_library run. */
export const groundedTurn = (text = 'The mechanism works as both passages describe.'): TurnOutcome => {
  const a = scriptedArtifact('passage one about the mechanism', LIBRARY);
  const b = scriptedArtifact('passage two about the mechanism', LIBRARY);
  return emptyOutcome({
    artifacts: [a, b],
    satisfiedFamilies: [LIBRARY.family],
    terminalCandidates: [scriptedCandidate(text, [a.ref, b.ref])],
    supportedClaims: [{ claim: 'mechanism supported', refs: [a.ref, b.ref] }],
  });
};
