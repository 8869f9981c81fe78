/** Words too common in code and prose to say anything about what is searched for. */
const STOPWORDS: ReadonlySet<string> = new Set([
  'the',
  'and',
  'for',
  'are',
  'but',
  'not',
  'you',
  'all',
  'any',
  'can',
  'was',
  'one',
  'our',
  'out',
  'has',
  'have',
  'how',
  'its',
  'may',
  'new',
  'now',
  'see',
  'who',
  'did',
  'get',
  'let',
  'use',
  'with',
  'this',
  'that',
  'from',
  'what',
  'when',
  'where',
  'which',
  'does',
  'into',
  'than',
  'then',
  'them',
  'they',
  'there',
  'their',
  'these',
  'those',
  'about',
  'would',
  'should',
  'could',
  'been',
  'being',
  'were',
  'will',
  'your',
  'also',
  'only',
]);

const MIN_TERM_LENGTH = 3;
const MAX_TERMS = 16;

/**
 * The lower-case words of a query worth matching: at least three characters, not stopwords,
 * each once. Terms match as substrings, so `parse` finds `parseConfig`.
 */
export const queryTerms = (query: string): string[] =>
  [
    ...new Set(
      query
        .toLowerCase()
        .split(/[^\p{L}\p{N}_]+/u)
        .filter((word) => word.length >= MIN_TERM_LENGTH && !STOPWORDS.has(word)),
    ),
  ].slice(0, MAX_TERMS);

export interface LineWindow {
  /** 1-based, inclusive. */
  readonly start: number;
  readonly end: number;
  readonly score: number;
}

interface LineMatch {
  readonly distinct: number;
  readonly occurrences: number;
  readonly terms: ReadonlySet<string>;
}

const countOccurrences = (haystack: string, needle: string): number => {
  let count = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) count += 1;
  return count;
};

const matchLine = (line: string, terms: readonly string[]): LineMatch | undefined => {
  const lower = line.toLowerCase();
  const found = new Set<string>();
  let occurrences = 0;
  for (const term of terms) {
    const count = countOccurrences(lower, term);
    if (count > 0) {
      found.add(term);
      occurrences += count;
    }
  }
  return found.size === 0 ? undefined : { distinct: found.size, occurrences, terms: found };
};

/**
 * The best windows of ±`radius` lines in a file, best first, not overlapping. A window scores by
 * how many different terms it holds (a window with all terms beats one repeating a single term),
 * then by its best line, then by how often terms occur; terms in the file path add a little, so
 * among equal windows the file named after the query wins.
 */
export const bestWindows = (
  lines: readonly string[],
  terms: readonly string[],
  relativePath: string,
  options: { readonly radius: number; readonly maxWindows: number },
): LineWindow[] => {
  const matches = new Map<number, LineMatch>();
  lines.forEach((line, index) => {
    const match = matchLine(line, terms);
    if (match !== undefined) matches.set(index, match);
  });
  if (matches.size === 0) return [];
  const lowerPath = relativePath.toLowerCase();
  const pathBonus = 0.5 * terms.filter((term) => lowerPath.includes(term)).length;

  const candidates: LineWindow[] = [];
  for (const [index, best] of matches) {
    const from = Math.max(0, index - options.radius);
    const to = Math.min(lines.length - 1, index + options.radius);
    const windowTerms = new Set<string>();
    let occurrences = 0;
    for (let i = from; i <= to; i += 1) {
      const match = matches.get(i);
      if (match === undefined) continue;
      for (const term of match.terms) windowTerms.add(term);
      occurrences += match.occurrences;
    }
    const score = 2 * windowTerms.size + best.distinct + 0.1 * Math.min(occurrences, 20) + pathBonus;
    candidates.push({ start: from + 1, end: to + 1, score });
  }
  candidates.sort((a, b) => b.score - a.score || a.start - b.start);
  const chosen: LineWindow[] = [];
  for (const candidate of candidates) {
    if (chosen.length >= options.maxWindows) break;
    if (chosen.every((window) => candidate.end < window.start || candidate.start > window.end)) chosen.push(candidate);
  }
  return chosen;
};
