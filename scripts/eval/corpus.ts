/**
 * The evaluation corpus: the Git manual as Debian's `git-doc` package ships it (HTML), installed
 * with apt-get when missing and this process may, plus the planted notes page in fixtures/.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CORPUS_PACKAGE = 'git-doc';
const DEFAULT_DIRECTORY = '/usr/share/doc/git-doc';
export const PLANTED_NOTES = fileURLToPath(new URL('./fixtures/site-notes.html', import.meta.url));

export class CorpusUnavailableError extends Error {
  override readonly name = 'CorpusUnavailableError';
}

export interface Corpus {
  readonly directory: string;
  /** `git-doc 1:2.39.5-0+deb12u3`, or the directory when it was given explicitly. */
  readonly version: string;
  /** Every HTML page of the manual, then the planted notes. */
  readonly files: readonly string[];
  readonly bytes: number;
  /**
   * The manual's AsciiDoc sources (`.txt`), added after scoring only to grow the library past
   * 15,000 passages for the latency figure; nothing is scored against them.
   */
  readonly scaleFiles: readonly string[];
}

const filesUnder = (directory: string, extension: string): string[] =>
  readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith(extension))
    .map((name) => join(directory, name))
    .sort();

const packageVersion = (): string | undefined => {
  try {
    return (
      // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query expands ${Version} itself.
      execFileSync('dpkg-query', ['-W', '-f=${Version}', CORPUS_PACKAGE], { encoding: 'utf8' }).trim() || undefined
    );
  } catch {
    return undefined;
  }
};

const install = (say: (line: string) => void): void => {
  if (process.getuid?.() !== 0) {
    throw new CorpusUnavailableError(
      `the evaluation corpus is Debian's ${CORPUS_PACKAGE} package: install it (sudo apt-get install ${CORPUS_PACKAGE}) or point HELIX_EVAL_CORPUS at a folder of HTML pages`,
    );
  }
  say(`eval: installing ${CORPUS_PACKAGE} with apt-get …`);
  try {
    execFileSync('apt-get', ['install', '-y', '-qq', CORPUS_PACKAGE], { stdio: ['ignore', 'ignore', 'inherit'] });
  } catch {
    throw new CorpusUnavailableError(
      `apt-get install ${CORPUS_PACKAGE} failed; run apt-get update first, or point HELIX_EVAL_CORPUS at a folder of HTML pages`,
    );
  }
};

/** The corpus named by HELIX_EVAL_CORPUS, else git-doc (installed on the way when possible). */
export const locateCorpus = (env: NodeJS.ProcessEnv, say: (line: string) => void): Corpus => {
  const given = env.HELIX_EVAL_CORPUS;
  const directory = given ?? DEFAULT_DIRECTORY;
  if (given === undefined && !existsSync(directory)) install(say);
  if (!existsSync(directory)) throw new CorpusUnavailableError(`no such corpus folder: ${directory}`);
  const pages = filesUnder(directory, '.html');
  if (pages.length === 0) throw new CorpusUnavailableError(`no HTML pages under ${directory}`);
  const files = [...pages, PLANTED_NOTES];
  const version = given === undefined ? `${CORPUS_PACKAGE} ${packageVersion() ?? 'unknown version'}` : directory;
  const bytes = files.reduce((sum, file) => sum + statSync(file).size, 0);
  return { directory, version, files, bytes, scaleFiles: filesUnder(directory, '.txt') };
};
