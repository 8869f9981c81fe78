/**
 * A deterministic synthetic research library for the search bench: English-shaped text whose word
 * frequencies follow Zipf's law, the property that decides how many passages a term matches and so
 * what a ranked full-text search costs. The same seed always yields the same documents and queries,
 * so figures from different runs and dialects describe the same work.
 *
 * The most frequent ranks are real English function words (PostgreSQL's English configuration drops
 * them as stop words, SQLite's FTS5 indexes them, as each would with real text); the rest are
 * pronounceable pseudo-words, some with inflectional suffixes so the stemmers have work to do.
 */
import { createHash } from 'node:crypto';
import type { LibraryDocumentRecord, LibraryPassageRecord } from '../src/store/port.js';

const FUNCTION_WORDS = (
  'the of and to in a is that for it as was with be by on not he this are or his from at which but have an had they ' +
  'you were their one all we can her has there been if more when will would who so no what its about into than them ' +
  'only other some these may such also'
).split(' ');
const ONSETS = [
  'b',
  'br',
  'c',
  'ch',
  'cl',
  'd',
  'dr',
  'f',
  'fl',
  'g',
  'gr',
  'h',
  'j',
  'k',
  'l',
  'm',
  'n',
  'p',
  'pl',
  'pr',
  'r',
  's',
  'sh',
  'st',
  't',
  'tr',
  'v',
  'w',
];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'io', 'ou'];
const CODAS = ['', '', 'n', 'r', 's', 't', 'l', 'm', 'nd', 'st', 'ck'];
/** Mostly two syllables, as English content words are (about seven letters with a suffix). */
const SYLLABLES = [1, 1, 1, 2, 2, 2, 2, 2, 3, 3];
const SUFFIXES = ['', '', '', '', 's', 'ed', 'ing', 'ion', 'al', 'ly', 'ment', 'er'];

export const VOCABULARY_SIZE = 4000;
/** Zipf's exponent for English word frequencies is close to 1. */
const ZIPF_EXPONENT = 1;
const PASSAGE_WORDS = { min: 60, max: 120 } as const;
const SENTENCE_WORDS = { min: 8, max: 20 } as const;
/** Passages share a heading within a section, as in a structured document. */
const SECTION_PASSAGES = 10;
const FIXED_TIME = Date.UTC(2025, 0, 1);

/** mulberry32: a small, fast, seedable generator; quality is ample for test text. */
const seededRandom = (seed: number): (() => number) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

const between = (random: () => number, min: number, max: number): number =>
  min + Math.floor(random() * (max - min + 1));
const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

const buildVocabulary = (random: () => number): string[] => {
  const words = new Set(FUNCTION_WORDS);
  while (words.size < VOCABULARY_SIZE) {
    let word = '';
    for (let s = pick(random, SYLLABLES); s > 0; s--)
      word += pick(random, ONSETS) + pick(random, VOWELS) + pick(random, CODAS);
    words.add(word + pick(random, SUFFIXES));
  }
  return [...words];
};

/** Draws ranks `from..size-1` with probability proportional to 1/rank^s (ranks counted from 1). */
const zipfRanks = (size: number, from = 0): ((random: () => number) => number) => {
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = from; rank < size; rank++) {
    total += 1 / (rank + 1) ** ZIPF_EXPONENT;
    cumulative.push(total);
  }
  return (random) => {
    const target = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cumulative[mid] ?? 0) < target) lo = mid + 1;
      else hi = mid;
    }
    return from + lo;
  };
};

export interface SyntheticDocument {
  readonly document: LibraryDocumentRecord;
  readonly passages: readonly LibraryPassageRecord[];
}

export interface SyntheticCorpus {
  /** The `index`-th document (0-based); its content depends only on the seed and the index. */
  document(index: number, passagesPerDocument: number): SyntheticDocument;
  /** `count` queries of 2-5 content words, drawn with the text's own frequencies. */
  queries(count: number): string[][];
}

export const syntheticCorpus = (seed: number): SyntheticCorpus => {
  const vocabulary = buildVocabulary(seededRandom(seed));
  const textRank = zipfRanks(vocabulary.length);
  // Queries name content, not function words; content words keep their text frequencies.
  const queryRank = zipfRanks(vocabulary.length, FUNCTION_WORDS.length);

  const sentence = (nextWord: () => string, random: () => number, words: number): string => {
    const parts = Array.from({ length: words }, nextWord);
    const first = parts[0] ?? '';
    parts[0] = first.charAt(0).toUpperCase() + first.slice(1);
    // An occasional comma, as in real prose; the tokenizers must skip it.
    if (words > 10 && random() < 0.5) parts[between(random, 3, words - 4)] += ',';
    return `${parts.join(' ')}.`;
  };

  const passageText = (nextWord: () => string, random: () => number): string => {
    let remaining = between(random, PASSAGE_WORDS.min, PASSAGE_WORDS.max);
    const sentences: string[] = [];
    while (remaining > 0) {
      const words = Math.min(remaining, between(random, SENTENCE_WORDS.min, SENTENCE_WORDS.max));
      sentences.push(sentence(nextWord, random, words));
      remaining -= words;
    }
    return sentences.join(' ');
  };

  const title = (nextWord: () => string, words: number): string =>
    Array.from({ length: words }, nextWord)
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join(' ');

  return {
    document(index, passagesPerDocument) {
      // Seeded per document, so a document's text does not depend on which were generated before it.
      const random = seededRandom(seed ^ Math.imul(index + 1, 0x9e3779b1));
      const nextWord = () => vocabulary[textRank(random)] as string;
      const nextContentWord = () => vocabulary[queryRank(random)] as string;
      const docId = `doc_bench_${index.toString().padStart(7, '0')}`;
      const passages: LibraryPassageRecord[] = [];
      let offset = 0;
      let heading = '';
      for (let ordinal = 0; ordinal < passagesPerDocument; ordinal++) {
        if (ordinal % SECTION_PASSAGES === 0) heading = title(nextContentWord, between(random, 2, 5));
        const text = passageText(nextWord, random);
        passages.push({
          passageId: `${docId}:${ordinal}`,
          docId,
          ordinal,
          heading,
          page: null,
          start: offset,
          end: offset + text.length,
          text,
        });
        // Passages are separated by a blank line in the document they were cut from.
        offset += text.length + 2;
      }
      const body = passages.map((p) => p.text).join('\n\n');
      const document: LibraryDocumentRecord = {
        docId,
        origin: `/bench/library/${docId}.md`,
        displayPath: `library/${docId}.md`,
        title: title(nextContentWord, between(random, 3, 7)),
        mediaType: 'text/markdown',
        sha256: createHash('sha256').update(body).digest('hex'),
        bytes: Buffer.byteLength(body),
        passageCount: passages.length,
        addedAt: FIXED_TIME,
        updatedAt: FIXED_TIME,
      };
      return { document, passages };
    },
    queries(count) {
      const random = seededRandom(seed ^ 0x51f15eed);
      return Array.from({ length: count }, () =>
        Array.from({ length: between(random, 2, 5) }, () => vocabulary[queryRank(random)] as string),
      );
    },
  };
};
