import { afterEach, describe, expect, it } from 'vitest';
import { askHelix } from '../src/client/askLoop.js';
import { HelixRestClient } from '../src/client/restClient.js';
import { emptyOutcome, type TurnOutcome } from '../src/domain/turn.js';
import { ScriptedExecutor, scriptedArtifact } from '../src/solver/scriptedExecutor.js';
import { groundedTurn, LIBRARY, LIBRARY_SCOPES } from './support/groundedTurn.js';
import { startTestHelix, type TestHelix } from './support/harness.js';
import { storeFlavours } from './support/stores.js';

/** A turn that reads a passage and proposes nothing: the run waits, with nothing authorized. */
const readingTurn = (content: string): TurnOutcome =>
  emptyOutcome({ artifacts: [scriptedArtifact(content, LIBRARY)], satisfiedFamilies: [LIBRARY.family] });

describe.each(storeFlavours())('the ask loop against a real Helix on $name', (flavour) => {
  let h: TestHelix | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });
  const ask = async (steps: TurnOutcome[], fallback?: TurnOutcome) => {
    h = await startTestHelix(flavour, {
      executor: new ScriptedExecutor(steps, fallback),
      env: { HELIX_AGENT_DATABASE_SCOPES: 'research_library' },
    });
    const client = new HelixRestClient(h.url, await h.key(LIBRARY_SCOPES));
    return askHelix(client, { objective: 'How does the mechanism work?', scopes: ['research_library'] });
  };

  it('a turn that read new passages without an answer is progress: the loop goes on to the answer', async () => {
    // Grounding is required, so these turns project no evidence; what they read shows as observations.
    const outcome = await ask([readingTurn('first passage read'), readingTurn('second passage read'), groundedTurn()]);
    expect(outcome.stoppedBecause).toBe('terminal');
    expect(outcome.run).toMatchObject({ completion_status: 'completed', budget: { steps_used: 3 } });
    expect(outcome.evidence.evidence_refs).toHaveLength(2);
    expect(outcome.evidence.observation_refs).toHaveLength(2);
  });

  it('a turn that read nothing new and changed nothing stops the loop', async () => {
    const outcome = await ask([], readingTurn('the same passage'));
    expect(outcome.stoppedBecause).toBe('no_progress');
    expect(outcome.run).toMatchObject({ completion_status: 'needs_more_evidence', budget: { steps_used: 2 } });
    expect(outcome.evidence).toMatchObject({ evidence_refs: [], observation_refs: [expect.any(String)] });
  });
});
