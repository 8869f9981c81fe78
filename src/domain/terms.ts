/**
 * Content terms of natural-language text, for building search queries and measuring overlap.
 * Deliberately small and deterministic: lower-case word tokens, English stopwords removed, and a
 * light suffix stemmer so "recovers" and "recovery" meet. The search engines stem on their own.
 */
const STOPWORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers him his how i if in ' +
    'into is it its itself just me more most my no nor not of off on once only or other our ours out over own same she should so ' +
    'some such than that the their theirs them then there these they this those through to too under until up very was we were ' +
    'what when where which while who whom why will with would you your yours also may might must shall via per ' +
    'tell explain describe give show find list please using use used does happen happens'
  ).split(' '),
);

export const tokenize = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}_-]*/gu) ?? [];

/** Distinct content words of `text`, in first-seen order. */
export const contentTerms = (text: string): string[] => {
  const seen = new Set<string>();
  for (const token of tokenize(text)) {
    for (const part of token.split(/[-_]/)) {
      if (part.length >= 2 && !STOPWORDS.has(part) && !/^\d+$/.test(part)) seen.add(part);
    }
  }
  return [...seen];
};

const SUFFIXES = [
  'ational',
  'ations',
  'ation',
  'ingly',
  'ing',
  'edly',
  'ies',
  'ied',
  'ers',
  'er',
  'ed',
  'ly',
  'es',
  's',
  'y',
];

const stripSuffix = (word: string): string => {
  for (const suffix of SUFFIXES) {
    if (word.length - suffix.length >= 3 && word.endsWith(suffix)) return word.slice(0, -suffix.length);
  }
  return word.length >= 4 && word.endsWith('e') ? word.slice(0, -1) : word;
};

/**
 * A light English stem for overlap comparison (not for display): suffixes stripped twice, so a
 * word meets its inflections whichever suffix comes first — "recover", "recovers", "recovered",
 * "recovery" → "recov"; "setting", "settings" → "sett"; "reduce", "reduces" → "reduc" (a final
 * "e" goes too). Both sides of every comparison use it, so over-stemming costs nothing but
 * the odd false meeting.
 */
export const stem = (word: string): string => stripSuffix(stripSuffix(word));

export const stemSet = (text: string): Set<string> => new Set(contentTerms(text).map(stem));
