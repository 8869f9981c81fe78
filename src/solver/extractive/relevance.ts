import { reciprocalRankFusion } from '../../domain/rankFusion.js';
import { stemSet } from '../../domain/terms.js';
import type { CapabilityHit } from '../../sources/capability.js';

export interface RankedHit extends CapabilityHit {
  readonly capabilityId: string;
  /** Fraction of the objective's content stems the passage contains. */
  readonly coverage: number;
  readonly matched: number;
  readonly rank: number;
}

/** How many of the question's content stems `text` contains. */
export const overlap = (text: string, wanted: ReadonlySet<string>): number => {
  let n = 0;
  for (const w of stemSet(text)) if (wanted.has(w)) n++;
  return n;
};

/**
 * Fuses the ranked lists of every (query, capability) call and keeps only passages that cover
 * enough of the question: a topic the library does not hold yields nothing, not a made-up answer.
 */
export const rankHits = (
  lists: readonly { readonly capabilityId: string; readonly hits: readonly CapabilityHit[] }[],
  question: string,
  /** Kept whatever their coverage: the entry about an identifier the question names is on topic by definition. */
  onTopic: (hit: CapabilityHit) => boolean = () => false,
): RankedHit[] => {
  const wanted = [...stemSet(question)];
  const fused = reciprocalRankFusion(
    lists.map((list) => list.hits.map((hit) => ({ hit, capabilityId: list.capabilityId }))),
    (entry) => entry.hit.ref,
  );
  const minimumMatched = wanted.length <= 2 ? 1 : 2;
  return fused
    .map(({ item: { hit, capabilityId }, score: rrf }) => {
      // Stemmed once, as the question's terms are: a stem stemmed again ("setting" → "sett") meets nothing.
      const have = stemSet(`${hit.title} ${hit.text}`);
      const matched = wanted.filter((w) => have.has(w)).length;
      const coverage = wanted.length === 0 ? 0 : matched / wanted.length;
      return { ...hit, capabilityId, coverage, matched, rank: rrf * (0.5 + coverage) };
    })
    .filter((h) => onTopic(h) || (h.matched >= minimumMatched && h.coverage >= 0.34))
    .sort((a, b) => b.rank - a.rank || a.ref.localeCompare(b.ref));
};

/** The supporting set: the best passages, at most two per document so one source cannot crowd out the rest. */
export const selectSupport = (ranked: readonly RankedHit[], count = 3): RankedHit[] => {
  const perDocument = new Map<string, number>();
  const chosen: RankedHit[] = [];
  for (const hit of ranked) {
    const used = perDocument.get(hit.documentId) ?? 0;
    if (used >= 2) continue;
    perDocument.set(hit.documentId, used + 1);
    chosen.push(hit);
    if (chosen.length === count) break;
  }
  return chosen;
};
