import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreDialect } from './dialect.js';

/**
 * The research library: documents, passages, and a ranked full-text index. The index is the one
 * place the engines differ: SQLite gets an FTS5 table (porter stemming, bm25), PostgreSQL a stored
 * English tsvector with a GIN index.
 */
export const library = (dialect: StoreDialect): Migration => ({
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('helix_library_documents')
      .addColumn('doc_id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('origin', 'text', (c) => c.notNull().unique())
      .addColumn('display_path', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('media_type', 'varchar(40)', (c) => c.notNull())
      .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
      .addColumn('bytes', 'bigint', (c) => c.notNull())
      .addColumn('passage_count', 'integer', (c) => c.notNull())
      .addColumn('added_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    // SQLite: an INTEGER PRIMARY KEY (a stable rowid alias) keys the FTS5 index, so replacing a
    // document deletes its index rows by rowid instead of scanning the index.
    const passages = db.schema.createTable('helix_library_passages');
    await (dialect === 'sqlite'
      ? passages
          .addColumn('rowkey', 'integer', (c) => c.primaryKey())
          .addColumn('passage_id', 'varchar(80)', (c) => c.notNull().unique())
      : passages.addColumn('passage_id', 'varchar(80)', (c) => c.primaryKey())
    )
      .addColumn('doc_id', 'varchar(64)', (c) =>
        c.notNull().references('helix_library_documents.doc_id').onDelete('cascade'),
      )
      .addColumn('ordinal', 'integer', (c) => c.notNull())
      .addColumn('heading', 'text')
      .addColumn('page', 'integer')
      .addColumn('start_offset', 'integer', (c) => c.notNull())
      .addColumn('end_offset', 'integer', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('helix_library_passages_doc')
      .on('helix_library_passages')
      .columns(['doc_id', 'ordinal'])
      .execute();

    if (dialect === 'sqlite') {
      await sql`CREATE VIRTUAL TABLE helix_library_fts USING fts5(heading, text, tokenize = 'porter unicode61')`.execute(
        db,
      );
    } else {
      await sql`ALTER TABLE helix_library_passages ADD COLUMN tsv tsvector GENERATED ALWAYS AS (setweight(to_tsvector('english', coalesce(heading, '')), 'A') || to_tsvector('english', text)) STORED`.execute(
        db,
      );
      await sql`CREATE INDEX helix_library_passages_tsv ON helix_library_passages USING GIN (tsv)`.execute(db);
    }
  },
});
