import { sha256Hex } from '../domain/hashing.js';
import type { TerminalCandidate, TurnArtifact, TurnOutcome } from '../domain/turn.js';
import type { TurnExecutor, TurnInput } from './executor.js';

/** One scripted step: an outcome, or a function of the input (for slow or abort-aware turns). */
export type ScriptedStep = TurnOutcome | ((input: TurnInput) => Promise<TurnOutcome>);

/**
 * An executor that plays back a script, one step per turn. It ships with the solver (like a
 * scripted model) so tests and demos can drive exact outcomes through the real service.
 */
export class ScriptedExecutor implements TurnExecutor {
  readonly provider = 'helix.scripted';
  readonly inputs: TurnInput[] = [];
  private readonly steps: ScriptedStep[];

  constructor(
    steps: readonly ScriptedStep[],
    private readonly fallback?: ScriptedStep,
  ) {
    this.steps = [...steps];
  }

  async executeTurn(input: TurnInput): Promise<TurnOutcome> {
    this.inputs.push(input);
    const step = this.steps.shift() ?? this.fallback;
    if (step === undefined) throw new Error('scripted executor has no step left');
    return typeof step === 'function' ? step(input) : step;
  }
}

/** Builds an artifact with a content-addressed ref, as a real capability would. */
export const scriptedArtifact = (
  content: string,
  options: { capabilityId: string; family: string; kind?: TurnArtifact['kind']; turn?: number },
): TurnArtifact => {
  const sha256 = sha256Hex(content);
  return {
    ref: `artifact:sha256:${sha256.slice(0, 40)}`,
    kind: options.kind ?? 'evidence',
    family: options.family,
    capabilityId: options.capabilityId,
    sha256,
    provenance: {
      source_id: 'scripted',
      locator: `scripted://${sha256.slice(0, 12)}`,
      retrieved_at: new Date(0).toISOString(),
      turn: options.turn ?? 1,
    },
    excerpt: content.slice(0, 280),
  };
};

export const scriptedCandidate = (
  text: string,
  supportingRefs: readonly string[],
  outputFields: Record<string, unknown> = {},
  writer = 'helix.scripted',
): TerminalCandidate => ({
  ref: `candidate:sha256:${sha256Hex(text).slice(0, 40)}`,
  writer,
  text,
  textSha256: sha256Hex(text),
  supportingRefs,
  outputFields,
});
