/**
 * An extractive answer composed to the run's answer contract: for each part of the question, the
 * passage statement that carries a value of the asked type and covers most of the part's focus —
 * one sentence for a value, a run of one passage's sentences for a list, a procedure or an
 * explanation (a lead-in with its items, a paragraph). Used
 * when the relevance-first composition would not meet the contract; undefined when no statement
 * of the evidence meets it for some part.
 */
import type { AnswerContract, ContractPart } from '../../domain/answerContract/contract.js';
import { fitOf, takesParagraph } from '../../domain/answerContract/judge.js';
import { renderAnswer, type ComposedAnswer } from './compose.js';
import type { RankedHit } from './relevance.js';
import { splitSentences } from './sentences.js';

/** Items a list statement may take after its lead-in. */
const MAX_ITEMS = 8;
const MAX_STATEMENT_CHARS = 900;

interface Statement {
  readonly sentences: readonly string[];
  readonly hit: RankedHit;
  readonly rank: number;
  readonly position: number;
  readonly coverage: number;
}

/** Every statement the hits offer for the part: single sentences, and for a list runs of one passage's sentences. */
const statementsFor = (part: ContractPart, hits: readonly RankedHit[]): Statement[] =>
  hits.flatMap((hit, rank) => {
    const sentences = splitSentences(hit.text);
    const longest = takesParagraph(part) ? MAX_ITEMS + 1 : 1;
    return sentences.flatMap((_, position) => {
      const found: Statement[] = [];
      for (let length = 1; length <= longest && position + length <= sentences.length; length++) {
        const run = sentences.slice(position, position + length);
        const text = run.join('\n');
        if (text.length > MAX_STATEMENT_CHARS) break;
        const fit = fitOf(part, { text, said: text, context: `${text}\n${hit.title}` });
        if (fit.typed && fit.onFocus) found.push({ sentences: run, hit, rank, position, coverage: fit.coverage });
      }
      return found;
    });
  });

/**
 * The best statement for a part: most focus covered, then the better-ranked passage, then the
 * earlier sentence; of runs from one lead-in, a list takes the most items, a value the fewest sentences.
 */
const bestFor = (part: ContractPart, hits: readonly RankedHit[], least: number): Statement | undefined => {
  const longer = takesParagraph(part) ? -1 : 1;
  return statementsFor(part, hits)
    .filter((s) => s.coverage >= least)
    .sort(
      (a, b) =>
        b.coverage - a.coverage ||
        a.rank - b.rank ||
        a.position - b.position ||
        longer * (a.sentences.length - b.sentences.length),
    )[0];
};

export const composeByContract = (contract: AnswerContract, hits: readonly RankedHit[]): ComposedAnswer | undefined => {
  const chosen: { sentence: string; hit: RankedHit }[] = [];
  for (const part of contract.parts) {
    const best = bestFor(part, hits, contract.min_focus_coverage);
    if (best === undefined) return undefined;
    for (const sentence of best.sentences)
      if (!chosen.some((c) => c.sentence === sentence)) chosen.push({ sentence, hit: best.hit });
  }
  return renderAnswer(chosen);
};
