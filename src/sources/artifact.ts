import { sha256Hex } from '../domain/hashing.js';
import type { ArtifactKind, Provenance, TurnArtifact } from '../domain/turn.js';

export const EXCERPT_LIMIT = 600;

/** Bounds an excerpt on a character boundary, marking the cut. */
export const boundedExcerpt = (text: string, limit = EXCERPT_LIMIT): string =>
  text.length <= limit ? text : `${text.slice(0, limit - 1).trimEnd()}…`;

/**
 * Builds an artifact whose ref is content-addressed: the same content from the same place gets
 * the same ref in every turn and run, so refs can be compared but not guessed into existence.
 */
export const makeArtifact = (input: {
  kind: ArtifactKind;
  family: string;
  capabilityId: string;
  content: string;
  title?: string;
  provenance: Provenance;
}): TurnArtifact => {
  const sha256 = sha256Hex(input.content);
  const identity = sha256Hex(
    `${input.capabilityId}\n${input.provenance.source_id}\n${input.provenance.locator}\n${input.provenance.span?.start ?? ''}:${input.provenance.span?.end ?? ''}\n${sha256}`,
  );
  return {
    ref: `artifact:sha256:${identity.slice(0, 40)}`,
    kind: input.kind,
    family: input.family,
    capabilityId: input.capabilityId,
    sha256,
    provenance: input.provenance,
    excerpt: boundedExcerpt(input.content),
    ...(input.title === undefined ? {} : { title: input.title }),
  };
};
