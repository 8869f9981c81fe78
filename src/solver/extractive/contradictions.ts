import { sha256Hex } from '../../domain/hashing.js';
import type { Contradiction } from '../../domain/run.js';
import { stemSet } from '../../domain/terms.js';
import type { RankedHit } from './relevance.js';
import { splitSentences } from './sentences.js';

/**
 * Contradictions the extractive executor can detect between passages of DIFFERENT documents:
 *   - numeric: near-identical statements giving different values in the same unit
 *     ("the lease is 2 minutes" vs "the lease is 5 minutes");
 *   - polarity: near-identical statements where exactly one is negated
 *     ("cancellation is reversible" vs "cancellation is not reversible").
 * It cannot detect paraphrased disagreement, different units for one quantity, disagreement
 * spread over several sentences, or statements true at different times (docs/solver.md).
 */
export interface DetectedContradiction extends Contradiction {
  readonly sides: readonly [RankedHit, RankedHit];
  readonly sentences: readonly [string, string];
}

const NEGATIONS = /\b(not|never|no|cannot|can't|isn't|aren't|doesn't|don't|won't|without|neither|nor)\b/i;
const QUANTITY =
  /(\d+(?:[.,]\d+)?)\s*(%|percent|ms|milliseconds?|seconds?|minutes?|hours?|days?|steps?|characters?|bytes?|kib|mib|gib|kb|mb|gb|times|requests?)\b/gi;

const jaccard = (a: Set<string>, b: Set<string>): number => {
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  return shared / (a.size + b.size - shared || 1);
};

const quantities = (sentence: string): Map<string, string> => {
  const found = new Map<string, string>();
  for (const [, value = '', unit = ''] of sentence.matchAll(QUANTITY)) {
    found.set(unit.toLowerCase().replace(/s$/, ''), value.replace(',', '.'));
  }
  return found;
};

const wordsWithoutNumbers = (sentence: string): Set<string> => stemSet(sentence.replace(/\d+(?:[.,]\d+)?/g, ' '));

const conflictKind = (a: string, b: string): 'numeric' | 'polarity' | null => {
  const similarity = jaccard(wordsWithoutNumbers(a), wordsWithoutNumbers(b));
  if (similarity >= 0.5) {
    const qa = quantities(a);
    const qb = quantities(b);
    for (const [unit, value] of qa) {
      const other = qb.get(unit);
      if (other !== undefined && Number(other) !== Number(value)) return 'numeric';
    }
  }
  if (similarity >= 0.6 && NEGATIONS.test(a) !== NEGATIONS.test(b)) return 'polarity';
  return null;
};

export const detectContradictions = (passages: readonly RankedHit[]): DetectedContradiction[] => {
  const found: DetectedContradiction[] = [];
  for (const [i, first] of passages.entries()) {
    for (const second of passages.slice(i + 1)) {
      // Sides in ref order, so the same disagreement keeps its id and its "1"/"2" across turns.
      const [a, b] = first.ref.localeCompare(second.ref) <= 0 ? [first, second] : [second, first];
      if (a.documentId === b.documentId) continue;
      for (const sa of splitSentences(a.text).sort()) {
        const conflict = splitSentences(b.text)
          .sort()
          .map((sb) => ({ sb, kind: conflictKind(sa, sb) }))
          .find((candidate) => candidate.kind !== null);
        if (conflict?.kind == null) continue;
        const { sb, kind } = conflict;
        found.push({
          contradiction_id: `conflict_${sha256Hex(`${a.ref}|${b.ref}|${sa}|${sb}`).slice(0, 12)}`,
          description: `${kind === 'numeric' ? 'Different values' : 'Opposite statements'}: "${sa}" (${a.title}) vs "${sb}" (${b.title})`,
          refs: [a.ref, b.ref],
          sides: [a, b],
          sentences: [sa, sb],
        });
        break;
      }
    }
  }
  return found;
};
