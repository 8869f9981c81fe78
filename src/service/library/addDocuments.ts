import type { DocumentSelection } from '../../sources/library/documentSelection.js';
import type { DocumentLimits } from '../../sources/library/extract/limits.js';
import { ingestPaths, type IngestProgress, type IngestReport } from '../../sources/library/ingest.js';
import type { LibraryDeps } from './deps.js';

/**
 * `helix library add`: indexes files and directories under the given per-document limits, walking
 * directories under `selection` (and embeds them when configured).
 */
export const addDocuments = (
  deps: LibraryDeps,
  paths: readonly string[],
  limits: DocumentLimits,
  selection: DocumentSelection,
  onProgress: (progress: IngestProgress) => void,
): Promise<IngestReport> => ingestPaths(deps.store, paths, deps.now, onProgress, limits, deps.embedder, selection);
