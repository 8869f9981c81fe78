import type { Capability } from '../capability.js';
import { positiveIntegerSetting } from '../web/sourceConfig.js';
import { readRepositoryFileCapability } from './readRepositoryFile.js';
import { DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_FILES_SCANNED } from './repositoryPolicy.js';
import { absoluteRoots } from './repositoryRoots.js';
import { searchRepositoryCapability } from './searchRepository.js';

export interface RepositoryConfig {
  /** Directories whose files may be searched and read; nothing outside them ever is. */
  readonly roots: readonly string[];
  /** Files larger than this are neither searched nor read (default 512 KiB). */
  readonly maxFileBytes?: number;
  /** Files examined per search, over all roots (default 5000). */
  readonly maxFilesScanned?: number;
}

/** The repository_evidence capabilities. Validates configuration only; does no I/O. */
export const repositoryCapabilities = (config: RepositoryConfig): Capability[] => {
  const roots = absoluteRoots(config.roots);
  const limits = {
    maxFileBytes: positiveIntegerSetting(config.maxFileBytes, DEFAULT_MAX_FILE_BYTES, 'maxFileBytes'),
    maxFilesScanned: positiveIntegerSetting(config.maxFilesScanned, DEFAULT_MAX_FILES_SCANNED, 'maxFilesScanned'),
  };
  return [searchRepositoryCapability({ roots, limits }), readRepositoryFileCapability({ roots, limits })];
};
