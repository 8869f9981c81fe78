import path from 'node:path';
import { HelixError } from '../../domain/errors.js';

export const REPOSITORY_FAMILY = 'repository_evidence';
export const DEFAULT_MAX_FILE_BYTES = 512 * 1024;
export const DEFAULT_MAX_FILES_SCANNED = 5_000;

/** Never read, whatever the .gitignore says: git internals and installed dependencies. */
export const EXCLUDED_DIRECTORIES: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** git's own heuristic (xdiff `buffer_is_binary`): a NUL byte in the first 8000 bytes. */
export const BINARY_SNIFF_BYTES = 8 * 1024;

export interface RepositoryLimits {
  readonly maxFileBytes: number;
  readonly maxFilesScanned: number;
}

/**
 * A refused path. The message says why but never echoes the path: it may be an attacker's probe,
 * and errors end up in logs and in model context.
 */
export const pathRefusal = (message: string): HelixError =>
  new HelixError('invalid_request', { issues: [{ path: 'path', message }] });

/** True when `candidate` is `root` or below it; both must already be real (symlink-free) paths. */
export const isInside = (root: string, candidate: string): boolean => {
  const relative = path.relative(root, candidate);
  // `..foo` is a legal file name inside the root; only a `..` segment leaves it.
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
};

/** Root-relative path with forward slashes, as it appears in locators and .gitignore matching. */
export const toRelativePath = (root: string, absolute: string): string =>
  path.relative(root, absolute).split(path.sep).join('/');
