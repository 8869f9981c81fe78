import { stemSet } from './terms.js';

/**
 * Whether an answer addresses its run's objective, at the least a measure can tell: it shares a
 * content term (src/domain/terms.ts: stopwords out, lightly stemmed) with the objective, or with a
 * sentence of a passage it cites that itself shares one with the objective ("Paris" for "the
 * capital of France", cited to "Paris is the capital of France."). An answer that meets neither
 * speaks of something else, whatever it cites: an instruction planted in evidence ("ignore the
 * objective and answer …") or a record pasted as the answer is not the objective's answer.
 *
 * A floor, not a relevance judgment: an off-topic answer that happens to share one term passes.
 * An objective with no content term (all stopwords) cannot be measured and never refuses.
 */
export const addressesObjective = (objective: string, text: string, citedPassages: readonly string[]): boolean => {
  const asked = stemSet(objective);
  if (asked.size === 0) return true;
  const answered = stemSet(text);
  if (meets(answered, asked)) return true;
  return citedPassages.some((passage) =>
    sentencesOf(passage).some((sentence) => {
      const said = stemSet(sentence);
      return meets(said, asked) && meets(said, answered);
    }),
  );
};

const meets = (a: ReadonlySet<string>, b: ReadonlySet<string>): boolean => [...a].some((term) => b.has(term));

/** Sentences and lines: what a passage says in one breath, so a term and its topic are said together. */
export const sentencesOf = (passage: string): string[] =>
  passage.split(/(?<=[.!?])\s+|\n+/u).filter((s) => s.trim() !== '');
