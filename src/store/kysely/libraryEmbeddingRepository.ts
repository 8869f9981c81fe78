import type { Kysely } from 'kysely';
import type { LibraryEmbeddingMethods, LibraryPassageRef } from '../port.js';
import type { HelixDatabase } from '../schema.js';
import { PASSAGE_COLUMNS, toHit } from './libraryRepository.js';
import { dotWithStored, encodeVector, normalized, topScored } from './libraryVectors.js';

/** Rows per insert: four parameters a row stays well under SQLite's bound-parameter cap. */
const INSERT_CHUNK = 100;

/**
 * Passage embeddings for hybrid search. `nearest` is brute force in process: it reads every vector
 * of the model and keeps the best dot products (vectors are unit length, so a dot is the cosine).
 * 15,000 passages of 768 dimensions is 46 MB read and about 10 ms of arithmetic a query, which a
 * library of that size affords; a larger one would want an index (pgvector, sqlite-vec).
 */
export const libraryEmbeddingRepository = (db: Kysely<HelixDatabase>): LibraryEmbeddingMethods => {
  const passagesWithout = (model: string) =>
    db
      .selectFrom('helix_library_passages as p')
      .leftJoin('helix_library_embeddings as e', (join) =>
        join.onRef('e.passage_id', '=', 'p.passage_id').on('e.model', '=', model),
      )
      .where('e.passage_id', 'is', null);
  return {
    async putEmbeddings(model, embeddings) {
      const rows = embeddings.flatMap(({ passageId, vector }) => {
        const unit = normalized(vector);
        // A zero vector has no direction to compare; the passage stays reachable lexically.
        return unit === undefined
          ? []
          : [{ passage_id: passageId, model, dims: unit.length, vector: encodeVector(unit) }];
      });
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        await db
          .insertInto('helix_library_embeddings')
          .values(rows.slice(i, i + INSERT_CHUNK))
          .onConflict((oc) =>
            oc.column('passage_id').doUpdateSet((eb) => ({
              model: eb.ref('excluded.model'),
              dims: eb.ref('excluded.dims'),
              vector: eb.ref('excluded.vector'),
            })),
          )
          .execute();
      }
    },
    async unembedded(model, limit) {
      const rows = await passagesWithout(model)
        .innerJoin('helix_library_documents as d', 'd.doc_id', 'p.doc_id')
        .select([...PASSAGE_COLUMNS, 'd.title', 'd.display_path'])
        .orderBy('p.doc_id')
        .orderBy('p.ordinal')
        .limit(limit)
        .execute();
      return rows.map((row): LibraryPassageRef => {
        const { passage, document } = toHit({ ...row, score: 0 });
        return { passage, document };
      });
    },
    async countUnembedded(model) {
      const row = await passagesWithout(model)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async nearest(vector, model, limit) {
      const query = normalized(vector);
      if (query === undefined || limit <= 0) return [];
      const stored = await db
        .selectFrom('helix_library_embeddings')
        .select(['passage_id', 'vector'])
        .where('model', '=', model)
        .where('dims', '=', query.length)
        .execute();
      const best = topScored(
        stored.map((row) => ({ id: row.passage_id, score: dotWithStored(row.vector, query) })),
        limit,
      );
      if (best.length === 0) return [];
      const rows = await db
        .selectFrom('helix_library_passages as p')
        .innerJoin('helix_library_documents as d', 'd.doc_id', 'p.doc_id')
        .select([...PASSAGE_COLUMNS, 'd.title', 'd.display_path'])
        .where(
          'p.passage_id',
          'in',
          best.map((b) => b.id),
        )
        .execute();
      const byId = new Map(rows.map((row) => [row.passage_id, row]));
      return best.flatMap((b) => {
        const row = byId.get(b.id);
        return row === undefined ? [] : [toHit({ ...row, score: b.score })];
      });
    },
  };
};
