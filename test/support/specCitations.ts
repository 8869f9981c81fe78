import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * Finds spec citations that a reader cannot follow inside the repository. The contract documents
 * live in `docs/spec/` (copied unchanged from the shared spec folder); code, tests and docs cite
 * them by that path, so a citation of a document that is not there, or of one outside the
 * repository (`../shared/spec/...`), is a broken promise to the reader.
 */

export const SPEC_DIR = 'docs/spec';

/** Where citations may appear. `docs/spec/` itself is the received text and is not ours to check. */
export const CITING_ROOTS = ['src', 'test', 'scripts', 'bench', 'docs', 'README.md'] as const;

const TEXT_FILE = /\.(ts|mts|cts|js|mjs|cjs|md|sh|json|ya?ml)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'coverage', '.git']);

export interface SpecCitationProblem {
  readonly file: string;
  readonly line: number;
  readonly citation: string;
  readonly reason: string;
}

/** Every problem with the spec citations under `root` (a repository checkout), by file and line. */
export function findSpecCitationProblems(root: string, skip: readonly string[] = []): SpecCitationProblem[] {
  const specNames = specDocumentNames(root);
  const problems: SpecCitationProblem[] = [];
  for (const file of citingFiles(root)) {
    if (skip.includes(file)) continue;
    problems.push(...problemsIn(root, file, readFileSync(join(root, file), 'utf8'), specNames));
  }
  // Reading order, so a failure lists the problems the way a reader meets them.
  return problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

/** The received spec documents: every `docs/spec/*.md` but the folder's own README. */
export function specDocumentNames(root: string): string[] {
  const dir = join(root, SPEC_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((name) => name.endsWith('.md') && name !== 'README.md');
}

function citingFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (path: string): void => {
    const rel = relative(root, path).split(sep).join('/');
    if (rel === SPEC_DIR) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) if (!SKIPPED_DIRS.has(entry)) walk(join(path, entry));
    } else if (stat.isFile() && TEXT_FILE.test(path)) {
      files.push(rel);
    }
  };
  for (const entry of CITING_ROOTS) if (existsSync(join(root, entry))) walk(join(root, entry));
  return files;
}

// A path ending in `spec/<name>.md`, with whatever leads up to it (`docs/`, `../shared/`, `./`).
const SPEC_PATH = /[\w./-]*\bspec\/[\w.-]+\.md\b/g;
// A quoted section or phrase right after a cited path: `docs/spec/<file>.md "Tokens"` or `<file>.md, "Pinned OAuth contract"`.
const QUOTE_AFTER = /^\)?[:,]?\s*\(?"([^"]{1,200})"/;
const ADR_NUMBER = /\bADR-(\d{4})\b/g;

function problemsIn(root: string, file: string, text: string, specNames: readonly string[]): SpecCitationProblem[] {
  const problems: SpecCitationProblem[] = [];
  const at = (index: number, citation: string, reason: string): void => {
    problems.push({ file, line: text.slice(0, index).split('\n').length, citation, reason });
  };

  for (const match of text.matchAll(SPEC_PATH)) {
    const citation = match[0];
    const target = citedFile(root, file, citation);
    if (target === undefined) {
      at(match.index, citation, `names a spec document outside the repository; cite ${SPEC_DIR}/<file>.md`);
      continue;
    }
    if (!existsSync(join(root, target))) {
      at(match.index, citation, `${target} does not exist in the repository`);
      continue;
    }
    const quoted = QUOTE_AFTER.exec(
      unwrapComment(text.slice(match.index + citation.length, match.index + citation.length + 300)),
    );
    if (
      quoted?.[1] !== undefined &&
      !normalized(readFileSync(join(root, target), 'utf8')).includes(normalized(quoted[1]))
    ) {
      at(match.index, `${citation} "${quoted[1]}"`, `"${quoted[1]}" is not in ${target}`);
    }
  }

  for (const name of specNames) {
    const stem = name.replace(/\.md$/, '');
    for (const match of text.matchAll(new RegExp(`(?<![\\w/.-])${escaped(stem)}(\\.md)?\\b`, 'g'))) {
      at(match.index, match[0], `cite it by its path, ${SPEC_DIR}/${name}`);
    }
  }

  for (const match of text.matchAll(ADR_NUMBER)) {
    const number = match[1] ?? '';
    if (!specNames.some((name) => name.startsWith(`adr-${number}-`))) {
      at(match.index, match[0], `no ${SPEC_DIR}/adr-${number}-*.md in the repository`);
    }
  }
  return problems;
}

/**
 * The repository path a citation points at, or undefined when it leaves the repository. A
 * `docs/spec/...` path is read from the repository root (the way code comments cite it); any
 * other path is relative to the citing file (a Markdown link such as `spec/<file>.md` in `docs/`).
 * A path through a `shared/spec/` folder names the copy outside the repository, whatever it resolves to.
 */
function citedFile(root: string, file: string, citation: string): string | undefined {
  if (/(^|\/)shared\/spec\//.test(citation)) return undefined;
  const absolute = citation.startsWith(`${SPEC_DIR}/`)
    ? resolve(root, citation)
    : resolve(root, dirname(file), citation);
  const rel = relative(resolve(root), absolute).split(sep).join('/');
  return rel.startsWith('../') || rel === '..' ? undefined : rel;
}

/** Joins a quote that a block or line comment wrapped over several lines. */
function unwrapComment(text: string): string {
  return text.replace(/\s*\n\s*(\*(?!\/)|\/\/|#)?\s*/g, ' ');
}

function normalized(text: string): string {
  return text.replace(/[*`]/g, '').replace(/\s+/g, ' ').toLowerCase();
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
