import ignore from 'ignore';

/**
 * Which files under a directory `helix library add` indexes. Patterns use .gitignore syntax,
 * matched against the path relative to the directory that was named (`_sources/`, `*.rst.txt`,
 * `api/legacy/**`, `!keep.md`). A file named on the command line is indexed whatever the patterns
 * say: it was asked for by name.
 *
 * The defaults skip what a documentation build or a checkout holds beside the pages: hidden files
 * and folders, dependency and build output, and the folders Sphinx fills with copies of the
 * sources (`_sources/*.rst.txt`, which would index every page twice, the second time as raw
 * markup) and with assets (`_static/`).
 */
export const DEFAULT_LIBRARY_EXCLUDES = ['.*', 'node_modules/', 'dist/', 'coverage/', '_sources/', '_static/'] as const;

export interface DocumentSelection {
  /** More patterns to skip, after the defaults (a later `!pattern` can take a default back). */
  readonly exclude: readonly string[];
  /** false: only `exclude` applies. */
  readonly defaultExcludes: boolean;
}

export const DEFAULT_DOCUMENT_SELECTION: DocumentSelection = { exclude: [], defaultExcludes: true };

export class ExcludePatternError extends Error {
  constructor(
    readonly pattern: string,
    reason: string,
  ) {
    super(`--exclude ${JSON.stringify(pattern)} ${reason}`);
    this.name = 'ExcludePatternError';
  }
}

/** An unclosed `[` (not escaped): .gitignore would read the rest of the pattern as one character class. */
const hasUnclosedClass = (pattern: string): boolean => {
  let open = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '[' && !open) open = true;
    else if (c === ']' && open) open = false;
  }
  return open;
};

/**
 * Refuses a pattern that cannot mean what its writer meant: it would match nothing (empty, a
 * comment, a `..` or a Windows-style path), or match differently from how it reads.
 */
export const checkExcludePattern = (pattern: string): string => {
  const trimmed = pattern.trim();
  if (trimmed === '' || trimmed === '!') throw new ExcludePatternError(pattern, 'is empty');
  if (trimmed.startsWith('#'))
    throw new ExcludePatternError(pattern, 'starts with # (a comment in .gitignore syntax); write \\# for a file name');
  if (trimmed.includes('\\\\') || /\\(?![*?[\]!# ])/.test(trimmed))
    throw new ExcludePatternError(pattern, 'has a backslash: separate folders with /');
  if (trimmed.split('/').includes('..'))
    throw new ExcludePatternError(pattern, 'has a .. segment: patterns match paths inside the directory added');
  if (hasUnclosedClass(trimmed)) throw new ExcludePatternError(pattern, 'has a [ without its ]');
  return trimmed;
};

/** Whether an entry found under an added directory is skipped; `relativePath` uses `/` and has no trailing slash. */
export type ExcludeTest = (relativePath: string, isDirectory: boolean) => boolean;

export const excludeTestFor = (selection: DocumentSelection): ExcludeTest => {
  const patterns = [
    ...(selection.defaultExcludes ? DEFAULT_LIBRARY_EXCLUDES : []),
    ...selection.exclude.map(checkExcludePattern),
  ];
  // Case-sensitive like the file systems the docs are built on: `_Static/` is not `_static/`.
  const rules = ignore({ ignorecase: false }).add(patterns);
  return (relativePath, isDirectory) => rules.ignores(isDirectory ? `${relativePath}/` : relativePath);
};
