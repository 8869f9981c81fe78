import type { DocumentLimits } from '../../sources/library/extract/limits.js';
import { ingestPaths, type IngestProgress, type IngestReport } from '../../sources/library/ingest.js';
import type { LibraryDeps } from './deps.js';

/** `helix library add`: indexes files and directories under the given per-document limits (and embeds them when configured). */
export const addDocuments = (
  deps: LibraryDeps,
  paths: readonly string[],
  limits: DocumentLimits,
  onProgress: (progress: IngestProgress) => void,
): Promise<IngestReport> => ingestPaths(deps.store, paths, deps.now, onProgress, limits, deps.embedder);
