import { constants as fsConstants } from 'node:fs';
import { open, readdir, realpath, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { sha256Hex } from '../../domain/hashing.js';
import type { LibraryDocumentRecord, LibraryPassageRecord, Store } from '../../store/port.js';
import { BOILERPLATE_MIN_DOCUMENTS, BoilerplateCounter, withoutBoilerplate } from './boilerplate.js';
import { extractDocument, type ExtractedDocument, SkippedDocumentError } from './extract/index.js';
import { isSupportedDocument } from './extract/detect.js';
import {
  DEFAULT_DOCUMENT_LIMITS,
  DocumentLimitError,
  type DocumentLimitName,
  type DocumentLimits,
} from './extract/limits.js';
import { generatePassages } from './passages.js';
import type { PassageEmbedder } from './embedder.js';
import { embedMissingPassages } from './embedPassages.js';
import { DEFAULT_DOCUMENT_SELECTION, excludeTestFor, type DocumentSelection } from './documentSelection.js';

/**
 * `skipped`: the file holds no content of its own (a redirect stub, SkippedDocumentError), so it is
 * not indexed and an earlier version of it is removed; `refused`: the document passed one of its
 * limits (DocumentLimitError); `failed`: anything else; `embedded`: passages of the document got
 * their embeddings (index and total then count passages).
 */
export type IngestOutcome = 'added' | 'updated' | 'unchanged' | 'skipped' | 'refused' | 'failed' | 'embedded';

export interface IngestProgress {
  readonly path: string;
  readonly outcome: IngestOutcome;
  readonly passages: number;
  readonly reason?: string;
  /** The limit a refused document passed. */
  readonly limit?: DocumentLimitName;
  readonly index: number;
  readonly total: number;
}

export interface IngestReport {
  readonly added: number;
  readonly updated: number;
  readonly unchanged: number;
  readonly skipped: number;
  readonly refused: number;
  readonly failed: number;
  readonly passages: number;
  /** Passages embedded in this run; absent when no embeddings endpoint is configured. */
  readonly embedded?: number;
  /** Why embedding stopped (the endpoint failed); the documents are indexed and searchable lexically. */
  readonly embeddingError?: string;
}

/**
 * Expands directories into the supported files under them, skipping what `selection` excludes
 * (documentSelection.ts); an excluded folder is not entered. A file named directly is always kept.
 */
const collectFiles = async (
  paths: readonly string[],
  selection: DocumentSelection,
): Promise<{ files: string[]; missing: string[] }> => {
  const excluded = excludeTestFor(selection);
  const files: string[] = [];
  const missing: string[] = [];
  const walk = async (root: string, dir: string): Promise<void> => {
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = join(dir, entry.name);
      if (excluded(relative(root, full).split(sep).join('/'), entry.isDirectory())) continue;
      if (entry.isDirectory()) await walk(root, full);
      else if (entry.isFile() && isSupportedDocument(entry.name)) files.push(full);
    }
  };
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (info === undefined) missing.push(path);
    else if (info.isDirectory()) await walk(path, path);
    else files.push(path);
  }
  return { files, missing };
};

/** How a document is named to people: relative to the working directory when it lies under it. */
const displayPathOf = (absolute: string): string => {
  const rel = relative(process.cwd(), absolute);
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep) ? rel.split(sep).join('/') : absolute;
};

/**
 * The file's bytes, refusing it before reading past `maxBytes`. Only regular files are read: a
 * device or pipe (a symlink named notes.md pointing at /dev/zero) has no size to check and no end.
 * The size is checked again while reading, since a file can grow after it was looked at.
 */
const readDocumentBytes = async (path: string, maxBytes: number): Promise<Uint8Array> => {
  // Non-blocking, so opening a pipe returns at once (to be refused) instead of waiting for a writer.
  const handle = await open(path, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new Error('not a regular file');
    if (info.size > maxBytes) throw new DocumentLimitError(path, 'fileBytes', maxBytes, info.size);
    // Some regular files (under /proc) report size 0 and have content, so the buffer can grow.
    let buffer = new Uint8Array(Math.min(maxBytes, Math.max(info.size, 64 * 1024)) + 1);
    let length = 0;
    for (;;) {
      if (length > maxBytes) throw new DocumentLimitError(path, 'fileBytes', maxBytes, length);
      if (length === buffer.length) {
        const larger = new Uint8Array(Math.min(maxBytes + 1, buffer.length * 2));
        larger.set(buffer);
        buffer = larger;
      }
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) return buffer.subarray(0, length);
      length += bytesRead;
    }
  } finally {
    await handle.close();
  }
};

/** Passages taken one at a time, so a document past the limit is refused without splitting the rest of it. */
const passagesWithin = (
  fileName: string,
  docId: string,
  extracted: ExtractedDocument,
  maxPassages: number,
): LibraryPassageRecord[] => {
  const records: LibraryPassageRecord[] = [];
  for (const p of generatePassages(extracted)) {
    if (records.length === maxPassages)
      throw new DocumentLimitError(fileName, 'passages', maxPassages, records.length + 1);
    records.push({
      passageId: `${docId}:${p.ordinal}`,
      docId,
      ordinal: p.ordinal,
      heading: p.heading,
      page: p.page,
      start: p.start,
      end: p.end,
      text: p.text,
    });
  }
  return records;
};

/** A file of the batch as the first look found it: its identity, and whether its bytes changed since it was stored. */
type Surveyed =
  | { readonly kind: 'unreadable'; readonly file: string; readonly error: unknown }
  | { readonly kind: 'unchanged'; readonly origin: string; readonly passages: number }
  | {
      readonly kind: 'changed';
      readonly file: string;
      readonly origin: string;
      readonly existing: LibraryDocumentRecord | undefined;
    };

/** A document read and extracted, ready to be stripped of boilerplate and split. */
interface Prepared {
  readonly sha256: string;
  readonly bytes: number;
  readonly extracted: ExtractedDocument;
}

/** Extracted documents kept between the count and the write, up to this many characters in all; the rest are read again. */
const KEPT_TEXT_CHARS = 32_000_000;

const survey = async (store: Store, file: string, limits: DocumentLimits): Promise<Surveyed> => {
  try {
    const origin = await realpath(file);
    const sha256 = sha256Hex(await readDocumentBytes(origin, limits.fileBytes));
    const existing = await store.read.library.findByOrigin(origin);
    if (existing?.sha256 === sha256) return { kind: 'unchanged', origin, passages: existing.passageCount };
    return { kind: 'changed', file, origin, existing };
  } catch (error) {
    return { kind: 'unreadable', file, error };
  }
};

/** A document with no content of its own is an outcome of its own, not a failure. */
const skippedOrThrow = (error: unknown): SkippedDocumentError => {
  if (error instanceof SkippedDocumentError) return error;
  throw error;
};

const prepare = async (origin: string, limits: DocumentLimits): Promise<Prepared> => {
  const bytes = await readDocumentBytes(origin, limits.fileBytes);
  return { sha256: sha256Hex(bytes), bytes: bytes.length, extracted: await extractDocument(origin, bytes, limits) };
};

/**
 * Counts the paragraphs of every readable document of the batch, unchanged ones included, so a
 * changed file loses the same boilerplate whichever of its neighbours changed with it. Nothing is
 * counted when no file changed (nothing will be written) or the batch is too small to repeat
 * anything often enough. Changed documents are kept for the write while they fit KEPT_TEXT_CHARS.
 */
const countBoilerplate = async (
  batch: readonly Surveyed[],
  limits: DocumentLimits,
): Promise<{ boilerplate: ReadonlySet<string>; kept: Map<string, Prepared> }> => {
  const kept = new Map<string, Prepared>();
  const readable = batch.filter((entry) => entry.kind !== 'unreadable');
  if (!batch.some((entry) => entry.kind === 'changed') || readable.length < BOILERPLATE_MIN_DOCUMENTS)
    return { boilerplate: new Set(), kept };
  const counter = new BoilerplateCounter();
  let keptChars = 0;
  for (const entry of readable) {
    // A document that cannot be extracted counts for nothing; the write reports why.
    const prepared = await prepare(entry.origin, limits).catch(() => undefined);
    if (prepared === undefined) continue;
    counter.add(prepared.extracted);
    if (entry.kind === 'changed' && keptChars + prepared.extracted.text.length <= KEPT_TEXT_CHARS) {
      kept.set(entry.origin, prepared);
      keptChars += prepared.extracted.text.length;
    }
  }
  return { boilerplate: counter.boilerplate(), kept };
};

const storeDocument = async (
  store: Store,
  origin: string,
  prepared: Prepared,
  existing: LibraryDocumentRecord | undefined,
  at: number,
  limits: DocumentLimits,
): Promise<number> => {
  const docId = `doc_${sha256Hex(origin).slice(0, 24)}`;
  const passages = passagesWithin(origin, docId, prepared.extracted, limits.passages);
  await store.transaction((uow) =>
    uow.library.replaceDocument(
      {
        docId,
        origin,
        displayPath: displayPathOf(origin),
        title: prepared.extracted.title,
        mediaType: prepared.extracted.mediaType,
        sha256: prepared.sha256,
        bytes: prepared.bytes,
        passageCount: passages.length,
        addedAt: existing?.addedAt ?? at,
        updatedAt: at,
      },
      passages,
    ),
  );
  return passages.length;
};

/**
 * `helix library add`: extracts, splits and indexes documents. A document is identified by its
 * real path; an unchanged file (same sha256) is left alone, a changed one has all its passages
 * replaced in one transaction, so a search never sees half a document. Paragraphs that repeat
 * across many documents of the batch (boilerplate.ts) are left out of the changed ones. A
 * document past one of `limits` is refused whole (nothing of it is written; an earlier version
 * stays as it was) and the rest are still indexed. With an `embedder`, passages without an
 * embedding by its model are embedded last (embedPassages.ts). Directories are walked under
 * `selection` (documentSelection.ts).
 */
export const ingestPaths = async (
  store: Store,
  paths: readonly string[],
  now: () => number,
  onProgress: (progress: IngestProgress) => void = () => undefined,
  limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS,
  embedder?: PassageEmbedder,
  selection: DocumentSelection = DEFAULT_DOCUMENT_SELECTION,
): Promise<IngestReport> => {
  const { files, missing } = await collectFiles(
    paths.map((p) => resolve(p)),
    selection,
  );
  const counts = { added: 0, updated: 0, unchanged: 0, skipped: 0, refused: 0, failed: missing.length, passages: 0 };
  const total = files.length + missing.length;
  for (const [i, path] of missing.entries()) {
    onProgress({ path, outcome: 'failed', passages: 0, reason: 'no such file or directory', index: i + 1, total });
  }
  const batch: Surveyed[] = [];
  for (const file of files) batch.push(await survey(store, file, limits));
  const { boilerplate, kept } = await countBoilerplate(batch, limits);

  for (const [i, entry] of batch.entries()) {
    const index = missing.length + i + 1;
    if (entry.kind === 'unchanged') {
      counts.unchanged++;
      onProgress({ path: displayPathOf(entry.origin), outcome: 'unchanged', passages: entry.passages, index, total });
      continue;
    }
    try {
      if (entry.kind === 'unreadable') throw entry.error;
      const prepared = kept.get(entry.origin) ?? (await prepare(entry.origin, limits).catch(skippedOrThrow));
      kept.delete(entry.origin);
      if (prepared instanceof SkippedDocumentError) {
        // A page that became a stub no longer says what its stored version said.
        const { existing } = entry;
        if (existing !== undefined) await store.transaction((uow) => uow.library.remove(existing.docId));
        counts.skipped++;
        onProgress({
          path: displayPathOf(entry.origin),
          outcome: 'skipped',
          passages: 0,
          reason: prepared.reason,
          index,
          total,
        });
        continue;
      }
      const extracted = withoutBoilerplate(entry.origin, prepared.extracted, boilerplate, limits.textChars);
      const passages = await storeDocument(
        store,
        entry.origin,
        { ...prepared, extracted },
        entry.existing,
        now(),
        limits,
      );
      const outcome = entry.existing === undefined ? 'added' : 'updated';
      counts[outcome]++;
      counts.passages += passages;
      onProgress({ path: displayPathOf(entry.origin), outcome, passages, index, total });
    } catch (err) {
      const path = displayPathOf(resolve(entry.file));
      if (err instanceof DocumentLimitError) {
        counts.refused++;
        onProgress({ path, outcome: 'refused', passages: 0, reason: err.message, limit: err.limit, index, total });
      } else {
        counts.failed++;
        onProgress({ path, outcome: 'failed', passages: 0, reason: (err as Error).message, index, total });
      }
    }
  }
  if (embedder === undefined) return counts;
  const embedding = await embedMissingPassages(store, embedder, (p) =>
    onProgress({ path: p.path, outcome: 'embedded', passages: p.passages, index: p.done, total: p.total }),
  );
  return {
    ...counts,
    embedded: embedding.embedded,
    ...(embedding.error === undefined ? {} : { embeddingError: embedding.error }),
  };
};
