import { stemSet } from '../../domain/terms.js';
import { overlap, type RankedHit } from './relevance.js';
import type { QuestionFocus } from './questionFocus.js';
import { splitSentences } from './sentences.js';
import { attributeStrength, fullStrength, namedIn, insistedNames } from './sufficiency.js';

const MAX_SENTENCES = 4;

export interface ComposedAnswer {
  readonly text: string;
  /** The passages actually quoted, in citation order: [1] is cited[0]. */
  readonly cited: readonly RankedHit[];
  readonly claims: readonly { claim: string; refs: string[] }[];
}

/**
 * An extractive answer: the passage sentences that best cover the question, each followed by its
 * citation number, then the numbered sources. Every word of the answer comes from a cited passage,
 * and only quoted passages are cited. Undefined when the evidence does not state what is asked:
 * no sentence of the chosen passages states the asked attribute (a default, a quantity), or the
 * passages never name a name the question insists on (a product, an abbreviation such as zstd).
 */
export const composeAnswer = (
  question: string,
  focus: QuestionFocus,
  support: readonly RankedHit[],
): ComposedAnswer | undefined => {
  const wanted = stemSet(question);
  const scored = support.flatMap((hit, index) =>
    splitSentences(hit.text).map((sentence, position) => {
      return { sentence, index, hit, matched: overlap(sentence, wanted), position };
    }),
  );
  const matching = scored.filter((s) => s.matched > 0);
  // A passage can be relevant through its title alone; then its opening sentence stands in.
  const pool = matching.length > 0 ? matching : scored.filter((s) => s.position === 0);
  const seen = new Set<string>();
  const chosen = pool
    .sort((a, b) => b.matched - a.matched || a.index - b.index || a.position - b.position)
    // The same sentence from another copy of the page adds nothing.
    .filter((s) => {
      const repeated = seen.has(s.sentence);
      seen.add(s.sentence);
      return !repeated;
    })
    .slice(0, MAX_SENTENCES);
  const cited = new Set(chosen.map((s) => s.hit));
  const strongest = (sentences: readonly { sentence: string }[]): number =>
    Math.max(0, ...sentences.map((s) => attributeStrength(s.sentence, focus.attribute)));
  if (strongest(chosen) < fullStrength(focus.attribute)) {
    // The passages chosen may state it, or state it as their point, in a sentence that shares no
    // word with the question ("The default value is 6700." for "how many … before …").
    const stating = scored
      .filter(
        (s) =>
          cited.has(s.hit) && !chosen.includes(s) && attributeStrength(s.sentence, focus.attribute) > strongest(chosen),
      )
      .sort(
        (a, b) => attributeStrength(b.sentence, focus.attribute) - attributeStrength(a.sentence, focus.attribute),
      )[0];
    if (stating === undefined && strongest(chosen) === 0) return undefined;
    if (stating !== undefined) chosen.splice(MAX_SENTENCES - 1, 1, stating);
  }
  const quoted = chosen.map((s) => `${s.hit.title}\n${s.hit.text}`).join('\n');
  if (!insistedNames(question).every((name) => namedIn(quoted, name))) return undefined;
  return renderAnswer(chosen.sort((a, b) => a.index - b.index || a.position - b.position));
};

/** The chosen sentences, in the order given, each followed by its citation number, then the numbered sources. */
export const renderAnswer = (
  chosen: readonly { readonly sentence: string; readonly hit: RankedHit }[],
): ComposedAnswer => {
  const cited = [...new Set(chosen.map((s) => s.hit))];
  const number = (hit: RankedHit) => cited.indexOf(hit) + 1;
  const body = chosen.map((s) => `${s.sentence} [${number(s.hit)}]`).join(' ');
  const sources = cited.map((hit, i) => `[${i + 1}] ${hit.title}`).join('\n');
  return {
    text: `${body}\n\nSources:\n${sources}`,
    cited,
    claims: chosen.map((s) => ({ claim: s.sentence, refs: [s.hit.ref] })),
  };
};
