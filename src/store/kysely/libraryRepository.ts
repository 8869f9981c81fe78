import { sql, type Kysely, type Selectable } from 'kysely';
import type { StoreDialect } from '../migrations/index.js';
import type {
  LibraryDocumentRecord,
  LibraryEmbeddingMethods,
  LibraryPassageRecord,
  LibraryQuery,
  LibraryRepository,
  LibrarySearchHit,
} from '../port.js';
import type { HelixDatabase, LibraryDocumentsTable, LibraryPassagesTable } from '../schema.js';
import { toMillis } from './columns.js';

/** The embedding methods live in libraryEmbeddingRepository.ts; the store joins the two. */
type LexicalLibraryRepository = Omit<LibraryRepository, keyof LibraryEmbeddingMethods>;

const documentFromRow = (row: Selectable<LibraryDocumentsTable>): LibraryDocumentRecord => ({
  docId: row.doc_id,
  origin: row.origin,
  displayPath: row.display_path,
  title: row.title,
  mediaType: row.media_type,
  sha256: row.sha256,
  bytes: Number(row.bytes),
  passageCount: Number(row.passage_count),
  addedAt: toMillis(row.added_at),
  updatedAt: toMillis(row.updated_at),
});

const passageFromRow = (row: Omit<Selectable<LibraryPassagesTable>, 'rowkey'>): LibraryPassageRecord => ({
  passageId: row.passage_id,
  docId: row.doc_id,
  ordinal: Number(row.ordinal),
  heading: row.heading,
  page: row.page === null ? null : Number(row.page),
  start: Number(row.start_offset),
  end: Number(row.end_offset),
  text: row.text,
});

export const PASSAGE_COLUMNS = [
  'p.passage_id',
  'p.doc_id',
  'p.ordinal',
  'p.heading',
  'p.page',
  'p.start_offset',
  'p.end_offset',
  'p.text',
] as const;

const MAX_TERMS = 32;
const MAX_PHRASES = 8;

/** Terms reach the engines only as quoted literals of letters and digits: no query syntax can be injected. */
const safeTerms = (terms: readonly string[]): string[] =>
  [...new Set(terms.flatMap((t) => t.toLowerCase().split(/[^\p{L}\p{N}]+/u)).filter((t) => t.length > 0))].slice(
    0,
    MAX_TERMS,
  );

/** A phrase as the tokens the SQLite tokenizer makes of it (`gc.auto` → gc auto), letters and digits only. */
const phraseTokens = (phrase: string): string[] =>
  phrase
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);

interface SafeQuery {
  readonly terms: readonly string[];
  readonly phrases: readonly string[];
}

const safeQuery = (query: LibraryQuery): SafeQuery => ({
  terms: safeTerms(query.terms),
  phrases: [...new Set(query.phrases.map((p) => p.trim()).filter((p) => p.length > 0 && p.length <= 200))].slice(
    0,
    MAX_PHRASES,
  ),
});

export type SearchRow = Omit<Selectable<LibraryPassagesTable>, 'rowkey'> & {
  title: string;
  display_path: string;
  score: number | string;
};

export const toHit = (row: SearchRow): LibrarySearchHit => ({
  passage: passageFromRow(row),
  document: { docId: row.doc_id, title: row.title, displayPath: row.display_path },
  score: Number(row.score),
});

/** SQLite FTS5: OR of quoted terms and phrases (porter-stemmed by the tokenizer); bm25 is lower-is-better. */
const searchSqlite = async (
  db: Kysely<HelixDatabase>,
  query: SafeQuery,
  limit: number,
): Promise<LibrarySearchHit[]> => {
  const phrases = query.phrases.map(phraseTokens).filter((tokens) => tokens.length > 0);
  const match = [...query.terms.map((t) => `"${t}"`), ...phrases.map((tokens) => `"${tokens.join(' ')}"`)].join(' OR ');
  if (match === '') return [];
  const rows = await db
    .selectFrom('helix_library_fts as f')
    .innerJoin('helix_library_passages as p', 'p.rowkey', 'f.rowid')
    .innerJoin('helix_library_documents as d', 'd.doc_id', 'p.doc_id')
    .select([
      ...PASSAGE_COLUMNS,
      'd.title',
      'd.display_path',
      sql<number>`-bm25(helix_library_fts, 2.0, 1.0)`.as('score'),
    ])
    .where(sql<boolean>`helix_library_fts MATCH ${match}`)
    .orderBy('score', 'desc')
    .orderBy('p.passage_id')
    .limit(limit)
    .execute();
  return rows.map((r) => toHit(r as SearchRow));
};

/**
 * PostgreSQL: OR of the terms and of each phrase, over the stored English tsvector, ranked by
 * ts_rank (length-normalized). Phrases go through phraseto_tsquery, which parses them as the
 * documents were parsed (the English parser keeps `gc.auto` as one lexeme).
 */
const searchPostgres = async (
  db: Kysely<HelixDatabase>,
  query: SafeQuery,
  limit: number,
): Promise<LibrarySearchHit[]> => {
  const parts = [
    ...(query.terms.length === 0 ? [] : [sql`to_tsquery('english', ${query.terms.join(' | ')})`]),
    ...query.phrases.map((phrase) => sql`phraseto_tsquery('english', ${phrase})`),
  ];
  if (parts.length === 0) return [];
  const rows = await db
    .selectFrom(sql`(SELECT ${sql.join(parts, sql` || `)} AS q)`.as('tsq'))
    .innerJoin('helix_library_passages as p', (join) => join.on(sql<boolean>`p.tsv @@ tsq.q`))
    .innerJoin('helix_library_documents as d', 'd.doc_id', 'p.doc_id')
    .select([...PASSAGE_COLUMNS, 'd.title', 'd.display_path', sql<number>`ts_rank(p.tsv, tsq.q, 1)`.as('score')])
    .orderBy('score', 'desc')
    .orderBy('p.passage_id')
    .limit(limit)
    .execute();
  return rows.map((r) => toHit(r as SearchRow));
};

/** The single letters-and-digits token a word is for the engines, or undefined when it is none. */
const singleToken = (word: string): string | undefined => {
  const [token, ...rest] = safeTerms([word]);
  return token !== undefined && rest.length === 0 ? token : undefined;
};

/** SQLite FTS5: passages matching the quoted (porter-stemmed) token, counted from the index. */
const frequencySqlite = async (db: Kysely<HelixDatabase>, token: string): Promise<number | undefined> => {
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM helix_library_fts
    WHERE helix_library_fts MATCH ${`"${token}"`}`.execute(db);
  return Number(rows[0]?.n ?? 0);
};

/** PostgreSQL: passages whose tsvector matches the word's English lexeme; a dictionary stopword has none. */
const frequencyPostgres = async (db: Kysely<HelixDatabase>, token: string): Promise<number | undefined> => {
  const { rows } = await sql<{ nodes: number; n: number | string }>`SELECT numnode(q.q) AS nodes,
      (SELECT count(*) FROM helix_library_passages p WHERE p.tsv @@ q.q) AS n
    FROM (SELECT plainto_tsquery('english', ${token}) AS q) q`.execute(db);
  const row = rows[0];
  return row === undefined || Number(row.nodes) === 0 ? undefined : Number(row.n);
};

/** SQLite: removes a document's FTS5 rows by rowid (indexed), before its passages go. */
const deleteIndexRows = async (db: Kysely<HelixDatabase>, docId: string): Promise<void> => {
  await db
    .deleteFrom('helix_library_fts')
    .where('rowid', 'in', db.selectFrom('helix_library_passages').select('rowkey').where('doc_id', '=', docId))
    .execute();
};

/** A document's search-index rows (SQLite), passages and document row, in that order. */
const deleteDocumentRows = async (db: Kysely<HelixDatabase>, dialect: StoreDialect, docId: string): Promise<void> => {
  if (dialect === 'sqlite') await deleteIndexRows(db, docId);
  await db.deleteFrom('helix_library_passages').where('doc_id', '=', docId).execute();
  await db.deleteFrom('helix_library_documents').where('doc_id', '=', docId).execute();
};

const insertDocument = async (db: Kysely<HelixDatabase>, document: LibraryDocumentRecord): Promise<void> => {
  await db
    .insertInto('helix_library_documents')
    .values({
      doc_id: document.docId,
      origin: document.origin,
      display_path: document.displayPath,
      title: document.title,
      media_type: document.mediaType,
      sha256: document.sha256,
      bytes: document.bytes,
      passage_count: document.passageCount,
      added_at: document.addedAt,
      updated_at: document.updatedAt,
    })
    .execute();
};

/** Passages in chunks (SQLite caps bound parameters per statement), each chunk indexed on SQLite as it lands. */
const insertPassages = async (
  db: Kysely<HelixDatabase>,
  dialect: StoreDialect,
  passages: readonly LibraryPassageRecord[],
): Promise<void> => {
  for (let i = 0; i < passages.length; i += 100) {
    const chunk = passages.slice(i, i + 100);
    await db
      .insertInto('helix_library_passages')
      .values(
        chunk.map((p) => ({
          passage_id: p.passageId,
          doc_id: p.docId,
          ordinal: p.ordinal,
          heading: p.heading,
          page: p.page,
          start_offset: p.start,
          end_offset: p.end,
          text: p.text,
        })),
      )
      .execute();
    if (dialect === 'sqlite') {
      await sql`INSERT INTO helix_library_fts (rowid, heading, text)
        SELECT rowkey, coalesce(heading, ''), text FROM helix_library_passages
        WHERE passage_id IN (${sql.join(chunk.map((p) => p.passageId))})`.execute(db);
    }
  }
};

export const libraryRepository = (db: Kysely<HelixDatabase>, dialect: StoreDialect): LexicalLibraryRepository => ({
  async findByOrigin(origin) {
    const row = await db
      .selectFrom('helix_library_documents')
      .selectAll()
      .where('origin', '=', origin)
      .executeTakeFirst();
    return row === undefined ? undefined : documentFromRow(row);
  },
  async getDocument(docId) {
    const row = await db
      .selectFrom('helix_library_documents')
      .selectAll()
      .where('doc_id', '=', docId)
      .executeTakeFirst();
    return row === undefined ? undefined : documentFromRow(row);
  },
  async replaceDocument(document, passages) {
    await deleteDocumentRows(db, dialect, document.docId);
    await insertDocument(db, document);
    await insertPassages(db, dialect, passages);
  },
  async list() {
    const rows = await db.selectFrom('helix_library_documents').selectAll().orderBy('display_path').execute();
    return rows.map(documentFromRow);
  },
  async remove(docId) {
    const existing = await db
      .selectFrom('helix_library_documents')
      .select('doc_id')
      .where('doc_id', '=', docId)
      .executeTakeFirst();
    if (existing === undefined) return false;
    await deleteDocumentRows(db, dialect, docId);
    return true;
  },
  async passages(docId, fromOrdinal, toOrdinal) {
    const rows = await db
      .selectFrom('helix_library_passages as p')
      .select(PASSAGE_COLUMNS)
      .where('p.doc_id', '=', docId)
      .where('p.ordinal', '>=', fromOrdinal)
      .where('p.ordinal', '<=', toOrdinal)
      .orderBy('p.ordinal')
      .execute();
    return rows.map(passageFromRow);
  },
  async termFrequencies(words) {
    const frequencies = new Map<string, number>();
    for (const word of [...new Set(words)].slice(0, MAX_TERMS)) {
      const token = singleToken(word);
      if (token === undefined) continue;
      const n = dialect === 'sqlite' ? await frequencySqlite(db, token) : await frequencyPostgres(db, token);
      if (n !== undefined) frequencies.set(word, n);
    }
    return frequencies;
  },
  async search(query, limit) {
    const safe = safeQuery(query);
    return dialect === 'sqlite' ? searchSqlite(db, safe, limit) : searchPostgres(db, safe, limit);
  },
  async countPassages() {
    const row = await db
      .selectFrom('helix_library_passages')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },
});
