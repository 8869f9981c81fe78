/**
 * The library search a turn runs: the engine's BM25 candidates, reranked with two boosts the engine
 * cannot give. A passage that names an asked identifier exactly (`gc.auto`, not `gc.autoDetach`)
 * and a passage whose document title or heading path carries the question's words (the entry
 * "git-stash › Commands › drop" for "what does git stash drop do?") rise above passages that
 * merely repeat the question's common words.
 */
import { identifiersIn, namesIdentifier } from '../../domain/identifiers.js';
import { contentTerms, stem } from '../../domain/terms.js';
import type { LibraryQuery, LibrarySearchHit, Store } from '../../store/port.js';

/** Candidates fetched per requested hit: enough for a boosted passage from below the cut to rise. */
const CANDIDATES_PER_HIT = 4;
const MAX_CANDIDATES = 80;
/** Weights over the lexical score normalised to 0..1 within one search. */
const IDENTIFIER_BOOST = 0.6;
const HEADING_BOOST = 0.4;

export const libraryQueryFor = (text: string): LibraryQuery => ({
  terms: contentTerms(text),
  phrases: identifiersIn(text),
});

const stems = (text: string): Set<string> => new Set(contentTerms(text).map(stem));

/** The share of the query's word stems found in the passage's title and heading path. */
const headingShare = (hit: LibrarySearchHit, queryStems: ReadonlySet<string>): number => {
  if (queryStems.size === 0) return 0;
  const labels = stems(`${hit.document.title} ${hit.passage.heading ?? ''}`);
  let shared = 0;
  for (const s of queryStems) if (labels.has(s)) shared += 1;
  return shared / queryStems.size;
};

/** The share of the asked identifiers the passage names as whole names. */
const identifierShare = (hit: LibrarySearchHit, identifiers: readonly string[]): number => {
  if (identifiers.length === 0) return 0;
  const text = `${hit.passage.heading ?? ''}\n${hit.passage.text}`;
  return identifiers.filter((identifier) => namesIdentifier(text, identifier)).length / identifiers.length;
};

/** Reorders one search's hits by lexical score plus the boosts; stable for equal scores. */
export const rerank = (hits: readonly LibrarySearchHit[], query: LibraryQuery): LibrarySearchHit[] => {
  const top = Math.max(0, ...hits.map((h) => h.score));
  const queryStems = new Set(query.terms.map(stem));
  const boosted = hits.map((hit, index) => ({
    hit,
    index,
    score:
      (top > 0 ? hit.score / top : 0) +
      IDENTIFIER_BOOST * identifierShare(hit, query.phrases) +
      HEADING_BOOST * headingShare(hit, queryStems),
  }));
  boosted.sort((a, b) => b.score - a.score || a.index - b.index);
  return boosted.map((b) => ({ ...b.hit, score: b.score }));
};

/** The best `limit` passages for `text`. */
export const rankedSearch = async (store: Store, text: string, limit: number): Promise<LibrarySearchHit[]> => {
  const query = libraryQueryFor(text);
  const candidates = await store.read.library.search(query, Math.min(limit * CANDIDATES_PER_HIT, MAX_CANDIDATES));
  return rerank(candidates, query).slice(0, limit);
};
