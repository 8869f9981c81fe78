import { z } from 'zod';
import { sha256Hex } from '../../domain/hashing.js';
import { makeArtifact } from '../artifact.js';
import type { Capability } from '../capability.js';
import { SCHOLARLY_FAMILY } from './lookupPapers.js';
import { findNumberMentions } from './numberMentions.js';

export const EXTRACT_NUMBERS_ID = 'scholarly.extract_numbers';

export const extractNumbersInput = z.object({ text: z.string().min(1).max(20_000) });
export type ExtractNumbersInput = z.infer<typeof extractNumbersInput>;

/** Enough for any abstract or results section; a wall of numbers is not worth one artifact each. */
const MAX_MENTIONS = 200;

/**
 * Pulls quantities (a number with a unit or currency) out of text the caller already holds, each
 * with its sentence. No network: the provenance is the text itself, named by its hash, and the
 * span is the mention's character offsets in it (0-based, end exclusive).
 */
export const extractNumbersCapability = (): Capability<ExtractNumbersInput> => ({
  id: EXTRACT_NUMBERS_ID,
  scope: 'scholarly_research',
  family: SCHOLARLY_FAMILY,
  kind: 'read',
  description:
    'Extract quantities (numbers with units or currencies) and the sentence stating each from up to 20,000 characters of text.',
  input: extractNumbersInput,
  async execute(input, context) {
    context.signal.throwIfAborted();
    const locator = `text:sha256:${sha256Hex(input.text)}`;
    const retrievedAt = new Date(context.now()).toISOString();
    const artifacts = findNumberMentions(input.text)
      .slice(0, MAX_MENTIONS)
      .map((mention) =>
        makeArtifact({
          kind: 'observation',
          family: SCHOLARLY_FAMILY,
          capabilityId: EXTRACT_NUMBERS_ID,
          content: `${mention.text} (value ${mention.value}, unit ${mention.unit}): ${mention.sentence.text}`,
          title: mention.text,
          provenance: {
            source_id: 'caller_text',
            locator,
            span: { start: mention.start, end: mention.end },
            retrieved_at: retrievedAt,
            turn: context.turn,
          },
        }),
      );
    return { artifacts, hits: [] };
  },
});
