import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { SourceUnavailableError } from '../web/sourceUnavailableError.js';

/**
 * Resolves configured roots to absolute paths without touching the disk (constructors do no
 * I/O); their real paths are taken per call, so a root that appears later still works.
 */
export const absoluteRoots = (roots: readonly string[]): readonly string[] => {
  if (roots.length === 0) throw new TypeError('roots must name at least one directory.');
  return roots.map((root, index) => {
    if (root.trim() === '' || root.includes('\0')) throw new TypeError(`roots[${index}] is not a usable path.`);
    return path.resolve(root);
  });
};

/** The symlink-free path of a root; every confinement check compares against this. */
export const realRoot = async (root: string, capabilityId: string): Promise<string> => {
  try {
    return await realpath(root);
  } catch {
    throw new SourceUnavailableError(capabilityId, 'root_unavailable');
  }
};
