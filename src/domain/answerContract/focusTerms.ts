/**
 * The focus of a question part: what an answer must be about. Its identifiers (kept whole), the
 * numbers it names, and its content words, each weighted by how rare it is in the admitted corpus
 * (inverse document frequency): "partitioned" in "the default of SESSION_COOKIE_PARTITIONED"
 * weighs far more than "default", so an answer about another setting's default covers little of
 * the focus. Words that only shape the question ("how many", "steps") are not focus.
 */
import { identifiersIn, namesIdentifier } from '../identifiers.js';
import { contentTerms, stem, stemSet } from '../terms.js';

export const FOCUS_KINDS = ['word', 'identifier', 'number'] as const;
export type FocusKind = (typeof FOCUS_KINDS)[number];

export interface FocusTerm {
  /** The word (as the question writes it, lower-cased), identifier or number. */
  readonly term: string;
  readonly kind: FocusKind;
  /** Rarity weight, > 0; the same for every term when the corpus gave no statistics. */
  readonly weight: number;
}

/** How often words occur in the admitted corpus, as far as its sources can say. */
export interface TermRarity {
  /** Searchable units (passages) in the admitted corpus; 0 when no source keeps statistics. */
  readonly units: number;
  /** In how many units `word` occurs; undefined when unknown. */
  readonly frequency: (word: string) => number | undefined;
}

export const NO_RARITY: TermRarity = { units: 0, frequency: () => undefined };

/** Words that say what kind of answer is wanted, not what it is about. */
const QUESTION_FORM_WORDS = new Set(
  (
    'many much often long large big far wide old kind kinds way ways thing things something someone anything ' +
    'need needs want able possible exactly get gets make makes called name named value values number ' +
    'step steps order ordered sequence happen happens mean means stand stands purpose reason ' +
    // The document itself and what it says: "… does the manual suggest?"
    'manual documentation docs say says suggest suggests mention mentions'
  ).split(' '),
);

const NUMBER = /(?<![\w.])\d+(?:\.\d+)*(?![\w.]\w)/g;

/** Inverse document frequency, smoothed; 1 for every word when there are no statistics. */
const weightOf = (word: string, rarity: TermRarity): number => {
  const df = rarity.units > 0 ? rarity.frequency(word) : undefined;
  if (df === undefined) return 1;
  return Math.log(1 + (rarity.units + 1) / (Math.min(df, rarity.units) + 1));
};

/** The heaviest weight the corpus can give: that of a word no unit holds. */
const rarestWeight = (rarity: TermRarity): number => (rarity.units > 0 ? Math.log(2 + rarity.units) : 1);

/** "How does X work?": the closing verb frames the question; the answer says how, not "work". */
const HOW_FRAME = /^(how (?:does|do|did|can|will|would|should) .+?)\s+(?:work|function|operate|behave)\s*\??$/i;

/** The words of `part` that are focus candidates, for a source to look up their frequencies. */
export const focusWords = (part: string): string[] => {
  const asked = part.trim().replace(HOW_FRAME, '$1');
  const inIdentifiers = stemSet(identifiersIn(asked).join(' '));
  return contentTerms(asked).filter((word) => !QUESTION_FORM_WORDS.has(word) && !inIdentifiers.has(stem(word)));
};

/** The focus terms of one question part; identifiers and numbers weigh as much as the rarest word. */
export const focusTermsOf = (part: string, rarity: TermRarity): FocusTerm[] => {
  const heaviest = rarestWeight(rarity);
  const identifiers = identifiersIn(part).map((term): FocusTerm => ({ term, kind: 'identifier', weight: heaviest }));
  const numbers = [...new Set([...part.matchAll(NUMBER)].map((m) => m[0]))]
    .filter((n) => !identifiers.some((i) => i.term.includes(n)))
    .map((term): FocusTerm => ({ term, kind: 'number', weight: heaviest }));
  const seen = new Set<string>();
  const words = focusWords(part).flatMap((word): FocusTerm[] => {
    const key = stem(word);
    if (seen.has(key)) return [];
    seen.add(key);
    return [{ term: word, kind: 'word', weight: weightOf(word, rarity) }];
  });
  return [...identifiers, ...numbers, ...words];
};

const NUMBER_TOKEN = (n: string): RegExp => new RegExp(`(?<![\\w.])${n.replace(/\./g, '\\.')}(?![\\w]|\\.\\d)`);

/** Whether `text` covers the focus term: the identifier as a whole name, the number as a token, the word by its stem. */
export const coversTerm = (text: string, stems: ReadonlySet<string>, term: FocusTerm): boolean => {
  if (term.kind === 'identifier') return namesIdentifier(text, term.term);
  if (term.kind === 'number') return NUMBER_TOKEN(term.term).test(text);
  return stems.has(stem(term.term));
};

/** The rarity-weighted share of `terms` that `text` covers; 1 when there is nothing to cover. */
export const focusCoverage = (text: string, terms: readonly FocusTerm[]): number => {
  const total = terms.reduce((sum, t) => sum + t.weight, 0);
  if (total === 0) return 1;
  const stems = stemSet(text);
  const covered = terms.filter((t) => coversTerm(text, stems, t)).reduce((sum, t) => sum + t.weight, 0);
  return covered / total;
};

/**
 * Whether `text` misses only one of the part's focus words, and not its rarest: a paraphrase says
 * one thing in other words ("processes" for workers, "pass" for given) but keeps the specific
 * ones. Needs four focus terms or more, so that one word is at most a quarter of the focus.
 */
export const missesOneCommonWord = (text: string, terms: readonly FocusTerm[]): boolean => {
  if (terms.length < 4) return false;
  const stems = stemSet(text);
  const missing = terms.filter((t) => !coversTerm(text, stems, t));
  if (missing.length !== 1) return false;
  const [missed] = missing;
  const rarest = Math.max(...terms.map((t) => t.weight));
  return missed !== undefined && missed.kind === 'word' && missed.weight < rarest;
};
