/**
 * Answer selection for a question that names identifiers: for each one, the entry about it (the
 * passage headed by it) or else sentences that name it, and of those the sentences that state the
 * asked attribute. A sentence about another entity is never offered for this one; when an
 * identifier or its asked attribute is missing from the evidence, nothing is proposed.
 */
import { sha256Hex } from '../../domain/hashing.js';
import { HEADING_PATH_SEPARATOR } from '../../domain/headingPath.js';
import { stemSet } from '../../domain/terms.js';
import type { CapabilityHit } from '../../sources/capability.js';
import type { DetectedContradiction } from './contradictions.js';
import { namesIdentifier } from '../../domain/identifiers.js';
import { attributeFor, type QuestionFocus } from './questionFocus.js';
import { overlap, type RankedHit } from './relevance.js';
import { splitSentences } from './sentences.js';
import { attributeStrength, DEFAULT_VALUE_STATEMENT, statesAttribute } from './sufficiency.js';

export interface FocusedSentence {
  readonly identifier: string;
  readonly sentence: string;
  readonly hit: RankedHit;
}

export type FocusedSelection =
  | { readonly kind: 'answer'; readonly sentences: readonly FocusedSentence[] }
  | { readonly kind: 'not_found'; readonly identifier: string; readonly what: 'entity' | 'attribute' };

const SENTENCES_PER_IDENTIFIER = 2;

/** The passage is the identifier's own entry: the last step of its heading path is the name. */
export const isEntryFor = (hit: CapabilityHit, identifier: string): boolean => {
  const last = hit.heading?.split(HEADING_PATH_SEPARATOR).at(-1);
  return last !== undefined && namesIdentifier(last, identifier) && last.length <= identifier.length + 40;
};

/** Candidate sentences for one identifier, best first: its entries' sentences, then sentences naming it. */
const sentencesFor = (
  identifier: string,
  focus: QuestionFocus,
  hits: readonly RankedHit[],
  wanted: ReadonlySet<string>,
): FocusedSentence[] => {
  const entries = hits.filter((hit) => isEntryFor(hit, identifier));
  const fromEntries = entries.flatMap((hit) =>
    splitSentences(hit.text).map((sentence) => ({ identifier, sentence, hit })),
  );
  const naming = hits
    .filter((hit) => !entries.includes(hit))
    .flatMap((hit) =>
      splitSentences(hit.text)
        .filter((sentence) => namesIdentifier(sentence, identifier))
        .map((sentence) => ({ identifier, sentence, hit })),
    );
  // The entry about the identifier outranks any passage that mentions it; within each, a sentence
  // stating the value outranks one that mentions a default in passing, then overlap with the question.
  const attribute = attributeFor(focus, identifier);
  return [...fromEntries.map((c) => ({ c, entry: 1 })), ...naming.map((c) => ({ c, entry: 0 }))]
    .filter(({ c }) => attribute !== 'default' || statesAttribute(c.sentence, 'default'))
    .map(({ c, entry }, order) => ({
      candidate: c,
      order,
      entry,
      states: attribute === 'default' ? attributeStrength(c.sentence, 'default') : 0,
      // Of several entries for one name (`--depth` of clone and of fetch), the one whose source the question names.
      source: overlap(c.hit.title, wanted),
      score: overlap(c.sentence, wanted),
    }))
    .sort(
      (a, b) =>
        b.entry - a.entry || b.source - a.source || b.states - a.states || b.score - a.score || a.order - b.order,
    )
    .map(({ candidate }) => candidate);
};

/** The value a default sentence states: its first number, else the word after "default is/to". */
const statedValue = (sentence: string): string | undefined =>
  /\b\d+(?:\.\d+)?\s*(?:[KMGT]i?B|%)?/i.exec(sentence)?.[0].replace(/\s+/g, '').toLowerCase() ??
  /\bdefaults? (?:value )?(?:is|to) "?([\w.-]+)/i.exec(sentence)?.[1]?.toLowerCase();

/** Two documents' entries for one identifier that state different values: a contradiction, not an answer. */
const conflictFor = (identifier: string, all: readonly FocusedSentence[]): DetectedContradiction | undefined => {
  const candidates = all.filter((c) => isEntryFor(c.hit, identifier) && DEFAULT_VALUE_STATEMENT.test(c.sentence));
  const first = candidates[0];
  if (first === undefined) return undefined;
  const firstValue = statedValue(first.sentence);
  const other = candidates.find(
    (c) =>
      c.hit.documentId !== first.hit.documentId &&
      statedValue(c.sentence) !== undefined &&
      statedValue(c.sentence) !== firstValue,
  );
  if (other === undefined || firstValue === undefined) return undefined;
  const [a, b] = first.hit.ref.localeCompare(other.hit.ref) <= 0 ? [first, other] : [other, first];
  return {
    contradiction_id: `conflict_${sha256Hex(`${a.hit.ref}|${b.hit.ref}|${a.sentence}|${b.sentence}`).slice(0, 12)}`,
    description: `Different values for ${first.identifier}: "${a.sentence}" (${a.hit.title}) vs "${b.sentence}" (${b.hit.title})`,
    refs: [a.hit.ref, b.hit.ref],
    sides: [a.hit, b.hit],
    sentences: [a.sentence, b.sentence],
  };
};

/** Per identifier asked for its default, two documents stating different values: each a contradiction. */
export const focusedConflicts = (
  question: string,
  focus: QuestionFocus,
  hits: readonly RankedHit[],
): DetectedContradiction[] => {
  const wanted = stemSet(question);
  return focus.identifiers.flatMap((identifier) => {
    if (attributeFor(focus, identifier) !== 'default') return [];
    const conflict = conflictFor(identifier, sentencesFor(identifier, focus, hits, wanted));
    return conflict === undefined ? [] : [conflict];
  });
};

export const selectFocused = (question: string, focus: QuestionFocus, hits: readonly RankedHit[]): FocusedSelection => {
  const wanted = stemSet(question);
  const chosen: FocusedSentence[] = [];
  for (const identifier of focus.identifiers) {
    if (!hits.some((hit) => isEntryFor(hit, identifier) || namesIdentifier(hit.text, identifier)))
      return { kind: 'not_found', identifier, what: 'entity' };
    const candidates = sentencesFor(identifier, focus, hits, wanted);
    if (candidates.length === 0) return { kind: 'not_found', identifier, what: 'attribute' };
    // Sentences from the best candidate's passage only: one entity, one source.
    const best = candidates[0]?.hit;
    chosen.push(...candidates.filter((c) => c.hit === best).slice(0, SENTENCES_PER_IDENTIFIER));
  }
  return { kind: 'answer', sentences: chosen };
};
