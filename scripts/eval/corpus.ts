/**
 * The evaluation corpora: freely licensed Debian documentation packages of different structure and
 * generator, one table entry each (CORPORA). A package already installed is read where it lies;
 * otherwise its .deb is fetched with `apt-get download` (no root needed) and unpacked with
 * `dpkg-deb -x` into the cache folder (HELIX_EVAL_CACHE, default ~/.cache/helix-eval); as root,
 * a failed download runs `apt-get update` once and tries again. Never add the PostgreSQL, SQLite or
 * R manuals here: they are kept for an independent evaluation.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convert } from 'html-to-text';
import { extractDocument } from '../../src/sources/library/extract/index.js';

export const PLANTED_NOTES = fileURLToPath(new URL('./fixtures/site-notes.html', import.meta.url));

export class CorpusUnavailableError extends Error {
  override readonly name = 'CorpusUnavailableError';
}

export interface CorpusSpec {
  /** Short name for `--corpus` and the report. */
  readonly name: string;
  readonly package: string;
  /** Where the package puts the manual (absolute, as installed). */
  readonly root: string;
  /** Paths relative to `root` that are documents of the corpus. */
  readonly include: RegExp;
  /** Paths relative to `root` left out (indexes, search pages, stubs). */
  readonly exclude?: RegExp;
  /** The question set, relative to this folder. */
  readonly questions: string;
  readonly generator: string;
  /** From the package's copyright file. */
  readonly license: string;
  /** Documents outside the package added to the corpus (the Git manual's planted notes). */
  readonly extraFiles?: readonly string[];
  /** Files under `root` added after scoring only to grow the library for the latency figure. */
  readonly scale?: RegExp;
}

export const CORPORA: readonly CorpusSpec[] = [
  {
    name: 'git',
    package: 'git-doc',
    root: '/usr/share/doc/git-doc',
    include: /\.html$/,
    questions: 'questions.json',
    generator: 'AsciiDoc (asciidoc/xmlto) HTML, one page per command',
    license: 'GPL-2 (copyright file: Files * GPL-2; the manual is part of Git)',
    extraFiles: [PLANTED_NOTES],
    scale: /\.txt$/,
  },
  {
    name: 'flask',
    package: 'python-flask-doc',
    root: '/usr/share/doc/python-flask-doc/html',
    include: /\.html$/,
    exclude: /^_|(^|\/)(genindex|search|404|py-modindex)\.html$/,
    questions: 'questions/flask.json',
    generator: 'Sphinx 5 HTML (reStructuredText), pages in subfolders',
    license: 'BSD-3-clause (Pallets team and community contributors)',
  },
  {
    name: 'diffutils',
    package: 'diffutils-doc',
    root: '/usr/share/doc/diffutils',
    include: /\.html$/,
    questions: 'questions/diffutils.json',
    generator: 'Texinfo (makeinfo --html), one page per node, many redirect stubs',
    license: 'GFDL-1.3, no invariant sections (doc/*.texi)',
  },
  {
    name: 'debian-reference',
    package: 'debian-reference-en',
    root: '/usr/share/debian-reference',
    include: /\.en\.html$/,
    questions: 'questions/debian-reference.json',
    generator: 'DocBook XML (xsltproc, DocBook XSL) HTML, one large page per chapter, many tables',
    license: 'GPL-2+ (Osamu Aoki)',
  },
  {
    name: 'asymptote',
    package: 'asymptote-doc',
    root: '/usr/share/doc/asymptote',
    include: /^[^/]+\.pdf$/,
    questions: 'questions/asymptote.json',
    generator: 'PDF manuals (Texinfo/TeX and LaTeX), five files',
    license: 'GPL-3+ (copyright file); the manual itself says LGPL',
  },
];

export interface Corpus {
  readonly spec: CorpusSpec;
  readonly directory: string;
  /** `git-doc 1:2.39.5-0+deb12u3`, or the directory when it was given explicitly. */
  readonly version: string;
  /** Every document of the corpus, then the extra files. */
  readonly files: readonly string[];
  readonly bytes: number;
  readonly scaleFiles: readonly string[];
}

/** How a question names a document: its path relative to the corpus folder (a base name outside it). */
export const labelOf = (directory: string, file: string): string => {
  const rel = relative(directory, file);
  return rel === '' || rel.startsWith('..') ? basename(file) : rel.split(sep).join('/');
};

/** A question's file label names a document when it is the document's label or its final path segments. */
export const labelMatches = (label: string, documentLabel: string): boolean =>
  documentLabel === label || documentLabel.endsWith(`/${label}`);

const filesUnder = (directory: string, include: RegExp, exclude?: RegExp): string[] =>
  readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .map((name) => name.split(sep).join('/'))
    .filter((name) => include.test(name) && !exclude?.test(name))
    .map((name) => join(directory, name))
    .filter((file) => statSync(file).isFile())
    .sort();

const installedVersion = (pkg: string): string | undefined => {
  try {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query expands ${Status} and ${Version} itself.
    const out = execFileSync('dpkg-query', ['-W', '-f=${Status} ${Version}', pkg], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return out.startsWith('install ok installed ') ? out.split(' ').at(-1) : undefined;
  } catch {
    return undefined;
  }
};

export const cacheFolder = (env: NodeJS.ProcessEnv): string =>
  env.HELIX_EVAL_CACHE ?? join(homedir(), '.cache', 'helix-eval');

const download = (pkg: string, debs: string): string | undefined => {
  try {
    execFileSync('apt-get', ['download', '-qq', pkg], { cwd: debs, stdio: ['ignore', 'ignore', 'inherit'] });
  } catch {
    return undefined;
  }
  return readdirSync(debs).find((name) => name.startsWith(`${pkg}_`) && name.endsWith('.deb'));
};

/** The package unpacked into the cache (fetched when missing); returns its version. */
const unpacked = (spec: CorpusSpec, cache: string, say: (line: string) => void): { dir: string; version: string } => {
  const target = join(cache, spec.package);
  const versionFile = join(target, '.version');
  if (existsSync(versionFile)) return { dir: join(target, spec.root), version: readFileSync(versionFile, 'utf8') };
  const debs = join(cache, 'debs');
  mkdirSync(debs, { recursive: true });
  let deb = readdirSync(debs).find((name) => name.startsWith(`${spec.package}_`) && name.endsWith('.deb'));
  if (deb === undefined) {
    say(`eval: fetching ${spec.package} with apt-get download …`);
    deb = download(spec.package, debs);
    if (deb === undefined && process.getuid?.() === 0) {
      say('eval: apt-get update …');
      execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'] });
      deb = download(spec.package, debs);
    }
  }
  if (deb === undefined)
    throw new CorpusUnavailableError(
      `could not fetch Debian's ${spec.package} (apt-get download ${spec.package}); run apt-get update, install it, or point HELIX_EVAL_CORPUS at its folder with --corpus ${spec.name}`,
    );
  const debPath = join(debs, deb);
  execFileSync('dpkg-deb', ['-x', debPath, target]);
  const version = execFileSync('dpkg-deb', ['-f', debPath, 'Version'], { encoding: 'utf8' }).trim();
  writeFileSync(versionFile, version);
  return { dir: join(target, spec.root), version };
};

/** One corpus of the table: `override` (HELIX_EVAL_CORPUS) names its folder, else the package is used. */
export const locateCorpus = (
  spec: CorpusSpec,
  env: NodeJS.ProcessEnv,
  say: (line: string) => void,
  override?: string,
): Corpus => {
  let directory: string;
  let version: string;
  const installed = installedVersion(spec.package);
  if (override !== undefined) {
    directory = override;
    version = override;
  } else if (installed !== undefined && existsSync(spec.root)) {
    directory = spec.root;
    version = `${spec.package} ${installed}`;
  } else {
    const found = unpacked(spec, cacheFolder(env), say);
    directory = found.dir;
    version = `${spec.package} ${found.version}`;
  }
  if (!existsSync(directory)) throw new CorpusUnavailableError(`no such corpus folder: ${directory}`);
  const documents = filesUnder(directory, spec.include, spec.exclude);
  if (documents.length === 0) throw new CorpusUnavailableError(`no documents of ${spec.name} under ${directory}`);
  const files = [...documents, ...(spec.extraFiles ?? [])];
  const bytes = files.reduce((sum, file) => sum + statSync(file).size, 0);
  const scaleFiles = spec.scale === undefined ? [] : filesUnder(directory, spec.scale);
  return { spec, directory, version, files, bytes, scaleFiles };
};

/** Plain text of every corpus document by label, to check the question set the way grep would. */
export const corpusTexts = async (corpus: Corpus): Promise<Map<string, string>> => {
  const texts = new Map<string, string>();
  for (const file of corpus.files) {
    const text = file.endsWith('.pdf')
      ? (await extractDocument(file, new Uint8Array(readFileSync(file)))).text
      : convert(readFileSync(file, 'utf8'), { wordwrap: false });
    texts.set(labelOf(corpus.directory, file), text);
  }
  return texts;
};
