import type { LibraryPassageRef, Store } from '../../store/port.js';
import type { PassageEmbedder } from './embedder.js';

/** Passages read, embedded and written per round; the client splits a round into requests of its own size. */
const ROUND = 256;

export interface EmbeddingProgress {
  /** The document whose passages were just embedded. */
  readonly path: string;
  readonly passages: number;
  /** Passages embedded so far in this run, and how many lacked an embedding when it began. */
  readonly done: number;
  readonly total: number;
}

export interface EmbeddingReport {
  readonly embedded: number;
  /** Why embedding stopped early (the endpoint failed); the passages stay searchable lexically. */
  readonly error?: string;
}

const countByDocument = (refs: readonly LibraryPassageRef[]): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const { document } of refs) counts.set(document.displayPath, (counts.get(document.displayPath) ?? 0) + 1);
  return counts;
};

/**
 * Embeds every passage that has no embedding by the embedder's model: those of documents added or
 * changed in this run (replacing a document dropped its vectors with its passages), and any an
 * earlier run could not embed. Passages already embedded are never sent again. The first failure
 * stops the run (a broken endpoint would fail every round alike); what was written stays.
 */
export const embedMissingPassages = async (
  store: Store,
  embedder: PassageEmbedder,
  onProgress: (progress: EmbeddingProgress) => void,
): Promise<EmbeddingReport> => {
  const total = await store.read.library.countUnembedded(embedder.model);
  let done = 0;
  try {
    while (done < total) {
      const refs = await store.read.library.unembedded(embedder.model, ROUND);
      if (refs.length === 0) break;
      const vectors = await embedder.embed(refs.map((ref) => ref.passage.text));
      await store.transaction((uow) =>
        uow.library.putEmbeddings(
          embedder.model,
          refs.flatMap((ref, i) => {
            const vector = vectors[i];
            return vector === undefined ? [] : [{ passageId: ref.passage.passageId, vector }];
          }),
        ),
      );
      for (const [path, passages] of countByDocument(refs)) {
        done += passages;
        onProgress({ path, passages, done, total });
      }
    }
  } catch (error) {
    return { embedded: done, error: (error as Error).message };
  }
  return { embedded: done };
};
