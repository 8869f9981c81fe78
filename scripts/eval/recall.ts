/**
 * File recall@5: the share of questions with a document that states the answer among the documents
 * of the top five passages, for the search a turn runs (the library's ranked search over the
 * question's content terms) beside the plain BM25 baseline over the same passages.
 */
import { basename } from 'node:path';
import { rankedSearch } from '../../src/sources/library/rankedSearch.js';
import type { Store } from '../../src/store/port.js';
import { buildBm25, type Bm25Index } from './bm25.js';
import type { Question } from './questionSet.js';

export const RECALL_K = 5;

export interface FileRecall {
  readonly questions: number;
  readonly helix: number;
  readonly baseline: number;
  /** Question ids the Helix search missed, for whoever tunes ranking next. */
  readonly helixMisses: readonly string[];
}

/** The baseline over every passage in the library, labelled with its document's base name. */
export const baselineOver = async (store: Store): Promise<Bm25Index> => {
  const passages: { file: string; text: string }[] = [];
  for (const document of await store.read.library.list()) {
    const rows = await store.read.library.passages(document.docId, 0, document.passageCount);
    for (const row of rows) passages.push({ file: basename(document.displayPath), text: row.text });
  }
  return buildBm25(passages);
};

const helixTopFiles = async (store: Store, question: string): Promise<string[]> =>
  (await rankedSearch(store, question, RECALL_K)).map((hit) => basename(hit.document.displayPath));

export const measureFileRecall = async (
  store: Store,
  baseline: Bm25Index,
  questions: readonly Question[],
): Promise<FileRecall> => {
  const labelled = questions.filter((q) => q.files !== undefined);
  let helix = 0;
  let bm25 = 0;
  const helixMisses: string[] = [];
  for (const question of labelled) {
    const expected = new Set(question.files);
    const found = (files: readonly string[]): boolean => files.some((file) => expected.has(file));
    if (found(await helixTopFiles(store, question.question))) helix += 1;
    else helixMisses.push(question.id);
    if (found(baseline.topFiles(question.question, RECALL_K))) bm25 += 1;
  }
  const share = (n: number): number => (labelled.length === 0 ? 0 : n / labelled.length);
  return { questions: labelled.length, helix: share(helix), baseline: share(bm25), helixMisses };
};
