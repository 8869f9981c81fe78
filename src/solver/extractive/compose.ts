import { stemSet } from '../../domain/terms.js';
import type { RankedHit } from './relevance.js';
import { splitSentences } from './sentences.js';

const MAX_SENTENCES = 4;

/**
 * An extractive answer: the passage sentences that best cover the question, each followed by its
 * citation number, then the numbered sources. Every word of the answer comes from a cited passage.
 */
export const composeAnswer = (question: string, support: readonly RankedHit[]): { text: string; claims: { claim: string; refs: string[] }[] } => {
  const wanted = stemSet(question);
  const scored = support.flatMap((hit, index) =>
    splitSentences(hit.text).map((sentence, position) => {
      const have = stemSet(sentence);
      let matched = 0;
      for (const w of wanted) if (have.has(w)) matched++;
      return { sentence, index, ref: hit.ref, matched, position };
    }),
  );
  const matching = scored.filter((s) => s.matched > 0);
  // A passage can be relevant through its title alone; then its opening sentence stands in.
  const pool = matching.length > 0 ? matching : scored.filter((s) => s.position === 0);
  const chosen = pool
    .sort((a, b) => b.matched - a.matched || a.index - b.index || a.position - b.position)
    .slice(0, MAX_SENTENCES)
    .sort((a, b) => a.index - b.index || a.position - b.position);
  const body = chosen.map((s) => `${s.sentence} [${s.index + 1}]`).join(' ');
  const sources = support.map((hit, i) => `[${i + 1}] ${hit.title}`).join('\n');
  return {
    text: `${body}\n\nSources:\n${sources}`,
    claims: chosen.map((s) => ({ claim: s.sentence, refs: [s.ref] })),
  };
};
