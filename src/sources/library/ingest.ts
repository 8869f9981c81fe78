import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { sha256Hex } from '../../domain/hashing.js';
import type { LibraryPassageRecord, Store } from '../../store/port.js';
import { extractDocument } from './extract/index.js';
import { detectMediaType } from './extract/detect.js';
import { splitPassages } from './passages.js';

export const MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;
const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git', 'dist', 'coverage']);

export type IngestOutcome = 'added' | 'updated' | 'unchanged' | 'failed';

export interface IngestProgress {
  readonly path: string;
  readonly outcome: IngestOutcome;
  readonly passages: number;
  readonly reason?: string;
  readonly index: number;
  readonly total: number;
}

export interface IngestReport {
  readonly added: number;
  readonly updated: number;
  readonly unchanged: number;
  readonly failed: number;
  readonly passages: number;
}

const isSupported = (file: string): boolean => {
  try {
    detectMediaType(file);
    return true;
  } catch {
    return false;
  }
};

/** Expands directories into the supported files under them (hidden and build folders skipped). */
const collectFiles = async (paths: readonly string[]): Promise<{ files: string[]; missing: string[] }> => {
  const files: string[] = [];
  const missing: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.') || SKIPPED_DIRECTORIES.has(entry.name)) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && isSupported(entry.name)) files.push(full);
    }
  };
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (info === undefined) missing.push(path);
    else if (info.isDirectory()) await walk(path);
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
 * `helix library add`: extracts, splits and indexes documents. A document is identified by its
 * real path; an unchanged file (same sha256) is left alone, a changed one has all its passages
 * replaced in one transaction, so a search never sees half a document.
 */
export const ingestPaths = async (
  store: Store,
  paths: readonly string[],
  now: () => number,
  onProgress: (progress: IngestProgress) => void = () => undefined,
): Promise<IngestReport> => {
  const { files, missing } = await collectFiles(paths.map((p) => resolve(p)));
  const counts = { added: 0, updated: 0, unchanged: 0, failed: missing.length, passages: 0 };
  const total = files.length + missing.length;
  missing.forEach((path, i) => onProgress({ path, outcome: 'failed', passages: 0, reason: 'no such file or directory', index: i + 1, total }));

  for (const [i, file] of files.entries()) {
    const index = missing.length + i + 1;
    try {
      const origin = await realpath(file);
      const info = await stat(origin);
      if (info.size > MAX_DOCUMENT_BYTES) throw new Error(`larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MiB`);
      const bytes = await readFile(origin);
      const sha256 = sha256Hex(bytes);
      const existing = await store.read.library.findByOrigin(origin);
      if (existing?.sha256 === sha256) {
        counts.unchanged++;
        onProgress({ path: displayPathOf(origin), outcome: 'unchanged', passages: existing.passageCount, index, total });
        continue;
      }
      const extracted = await extractDocument(origin, new Uint8Array(bytes));
      const docId = `doc_${sha256Hex(origin).slice(0, 24)}`;
      const passages: LibraryPassageRecord[] = splitPassages(extracted).map((p) => ({
        passageId: `${docId}:${p.ordinal}`,
        docId,
        ordinal: p.ordinal,
        heading: p.heading,
        page: p.page,
        start: p.start,
        end: p.end,
        text: p.text,
      }));
      const at = now();
      await store.transaction((uow) =>
        uow.library.replaceDocument(
          {
            docId,
            origin,
            displayPath: displayPathOf(origin),
            title: extracted.title,
            mediaType: extracted.mediaType,
            sha256,
            bytes: bytes.length,
            passageCount: passages.length,
            addedAt: existing?.addedAt ?? at,
            updatedAt: at,
          },
          passages,
        ),
      );
      const outcome = existing === undefined ? 'added' : 'updated';
      counts[outcome]++;
      counts.passages += passages.length;
      onProgress({ path: displayPathOf(origin), outcome, passages: passages.length, index, total });
    } catch (err) {
      counts.failed++;
      onProgress({ path: displayPathOf(resolve(file)), outcome: 'failed', passages: 0, reason: (err as Error).message, index, total });
    }
  }
  return counts;
};
