import type { Kysely, Migration } from 'kysely';
import type { StoreDialect } from './dialect.js';

/**
 * Optional passage embeddings for hybrid library search (docs/solver.md). One vector per passage,
 * stored as Float32 little-endian bytes (4 bytes a dimension) with the model that made it, so a
 * changed model is re-embedded rather than compared across spaces. The row goes with its passage
 * (ON DELETE CASCADE; SQLite runs with foreign_keys on), so replacing or removing a document
 * removes its vectors in the same transaction.
 */
export const libraryEmbeddings = (dialect: StoreDialect): Migration => ({
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('helix_library_embeddings')
      .addColumn('passage_id', 'varchar(80)', (c) =>
        c.primaryKey().references('helix_library_passages.passage_id').onDelete('cascade'),
      )
      .addColumn('model', 'text', (c) => c.notNull())
      .addColumn('dims', 'integer', (c) => c.notNull())
      .addColumn('vector', dialect === 'sqlite' ? 'blob' : 'bytea', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('helix_library_embeddings_model')
      .on('helix_library_embeddings')
      .column('model')
      .execute();
  },
});
