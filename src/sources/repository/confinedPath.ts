import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { GitignoreRules } from './gitignoreRules.js';
import type { RequestedPath } from './requestedPath.js';
import { EXCLUDED_DIRECTORIES, isInside, pathRefusal, toRelativePath } from './repositoryPolicy.js';

/** One message for every "no such readable file" reason, so refusals do not reveal which files exist. */
export const UNREADABLE = 'path does not name a readable file in the repository';

/**
 * Resolves a lexically checked path to a real file inside the real root, or refuses.
 *
 * Every prefix of the path is resolved, not just the whole: a directory symlink that leaves the
 * root is refused even when a second link leads back in. The path is then checked against the
 * .gitignore rules twice — as asked, and as resolved — so an in-root symlink cannot expose an
 * ignored file under another name. The residual race (a component swapped for a symlink between
 * this check and the open) needs an attacker already writing to the repository; O_NOFOLLOW in
 * readTextFile closes it for the final component.
 */
export const resolveConfinedFile = async (
  root: string,
  requested: RequestedPath,
  rules: GitignoreRules,
): Promise<{ readonly absolute: string; readonly relativePath: string }> => {
  let real = root;
  for (let depth = 1; depth <= requested.segments.length; depth += 1) {
    try {
      real = await realpath(path.join(root, ...requested.segments.slice(0, depth)));
    } catch {
      throw pathRefusal(UNREADABLE);
    }
    if (!isInside(root, real)) throw pathRefusal(UNREADABLE);
  }
  const relativePath = toRelativePath(root, real);
  if (relativePath === '' || relativePath.split('/').some((segment) => EXCLUDED_DIRECTORIES.has(segment))) {
    throw pathRefusal(UNREADABLE);
  }
  if ((await rules.ignoresPath(requested.relativePath, false)) || (await rules.ignoresPath(relativePath, false))) {
    throw pathRefusal(UNREADABLE);
  }
  return { absolute: real, relativePath };
};
