/**
 * File recall@5: the share of questions with a document that states the answer among the documents
 * of the top five passages, for the search a turn runs (the library's ranked search over the
 * question's content terms) beside the plain BM25 baseline over the same passages.
 */
import { rankedSearch } from '../../src/sources/library/rankedSearch.js';
import type { Store } from '../../src/store/port.js';
import { buildBm25, type Bm25Index } from './bm25.js';
import { labelMatches } from './corpus.js';
import type { Question } from './questionSet.js';

export const RECALL_K = 5;

export interface FileRecall {
  readonly questions: number;
  readonly helix: number;
  readonly baseline: number;
  /** Question ids the Helix search missed, for whoever tunes ranking next. */
  readonly helixMisses: readonly string[];
}

/** How a document is named in the question files (corpus.ts labelOf, given the corpus folder). */
export type DocumentLabel = (displayPath: string) => string;

/** The baseline over every passage in the library, labelled as the question files name documents. */
export const baselineOver = async (store: Store, label: DocumentLabel): Promise<Bm25Index> => {
  const passages: { file: string; text: string }[] = [];
  for (const document of await store.read.library.list()) {
    const rows = await store.read.library.passages(document.docId, 0, document.passageCount);
    for (const row of rows) passages.push({ file: label(document.displayPath), text: row.text });
  }
  return buildBm25(passages);
};

const helixTopFiles = async (store: Store, question: string, label: DocumentLabel): Promise<string[]> =>
  (await rankedSearch(store, question, RECALL_K)).map((hit) => label(hit.document.displayPath));

export const measureFileRecall = async (
  store: Store,
  baseline: Bm25Index,
  questions: readonly Question[],
  label: DocumentLabel,
): Promise<FileRecall> => {
  const labelled = questions.filter((q) => q.files !== undefined);
  let helix = 0;
  let bm25 = 0;
  const helixMisses: string[] = [];
  for (const question of labelled) {
    const expected = question.files ?? [];
    const found = (files: readonly string[]): boolean =>
      files.some((file) => expected.some((wanted) => labelMatches(wanted, file)));
    if (found(await helixTopFiles(store, question.question, label))) helix += 1;
    else helixMisses.push(question.id);
    if (found(baseline.topFiles(question.question, RECALL_K))) bm25 += 1;
  }
  const share = (n: number): number => (labelled.length === 0 ? 0 : n / labelled.length);
  return { questions: labelled.length, helix: share(helix), baseline: share(bm25), helixMisses };
};
