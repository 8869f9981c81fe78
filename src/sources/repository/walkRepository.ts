import type { Dirent } from 'node:fs';
import { realpath, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { GitignoreRules } from './gitignoreRules.js';
import { EXCLUDED_DIRECTORIES } from './repositoryPolicy.js';

export interface WalkedFile {
  readonly absolute: string;
  /** Root-relative, forward slashes. */
  readonly relativePath: string;
}

/**
 * Yields the regular, non-ignored files below a real root in a stable (sorted, depth-first) order.
 *
 * Symlinks are never followed, to files or to directories: a link out of the root would leak,
 * a link within it only repeats a file the walk reaches under its real name, and a link cycle
 * would never end. Each directory is re-resolved before it is read, so one swapped for a link
 * since its parent was listed is skipped rather than entered.
 */
export async function* walkRepository(
  root: string,
  rules: GitignoreRules,
  signal: AbortSignal,
  directory = '',
): AsyncGenerator<WalkedFile> {
  const absoluteDirectory = path.join(root, ...(directory === '' ? [] : directory.split('/')));
  let entries: Dirent[];
  try {
    if ((await realpath(absoluteDirectory)) !== absoluteDirectory) return;
    entries = await readdir(absoluteDirectory, { withFileTypes: true });
  } catch {
    // A directory that vanished or cannot be read has nothing to search.
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    signal.throwIfAborted();
    if (EXCLUDED_DIRECTORIES.has(entry.name) || entry.isSymbolicLink()) continue;
    const relativePath = directory === '' ? entry.name : `${directory}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!(await rules.ignoresEntry(relativePath, true))) yield* walkRepository(root, rules, signal, relativePath);
    } else if (entry.isFile() && !(await rules.ignoresEntry(relativePath, false))) {
      yield { absolute: path.join(absoluteDirectory, entry.name), relativePath };
    }
  }
}
