import { EXCLUDED_DIRECTORIES, pathRefusal } from './repositoryPolicy.js';

export interface RequestedPath {
  readonly rootIndex: number;
  /** Normalized: forward slashes, no empty or `.` segments. */
  readonly relativePath: string;
  readonly segments: readonly string[];
}

const ROOT_PREFIX = /^(\d{1,3}):(.*)$/s;

/**
 * Checks a caller-supplied path before any file system call. The `rootIndex:` prefix is read only
 * when several roots are configured, so with one root a file may be called `1:notes.md`.
 * Backslashes are refused rather than guessed at: on Windows they are separators, elsewhere they
 * are far more often an escape attempt (`..\..\etc`) than part of a file name.
 */
export const parseRequestedPath = (raw: string, rootCount: number): RequestedPath => {
  if (raw.includes('\0')) throw pathRefusal('path must not contain NUL bytes');
  let rootIndex = 0;
  let rest = raw;
  const prefixed = rootCount > 1 ? ROOT_PREFIX.exec(raw) : null;
  if (prefixed) {
    rootIndex = Number(prefixed[1]);
    rest = prefixed[2] ?? '';
    if (rootIndex >= rootCount) throw pathRefusal('path names an unknown repository root');
  }
  if (rest.includes('\\')) throw pathRefusal('path must use forward slashes');
  if (rest.startsWith('/') || /^[A-Za-z]:/.test(rest))
    throw pathRefusal('path must be relative to the repository root');
  const segments = rest.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) throw pathRefusal("path must not contain '..' segments");
  if (segments.length === 0) throw pathRefusal('path must name a file');
  if (segments.some((segment) => EXCLUDED_DIRECTORIES.has(segment))) {
    throw pathRefusal('path is inside a directory that is never read (git internals or installed dependencies)');
  }
  return { rootIndex, relativePath: segments.join('/'), segments };
};
