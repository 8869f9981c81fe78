import { counted } from './counted.js';
import { Command } from 'commander';
import { LIBRARY_LIMIT_SETTINGS, libraryLimits, parseLibraryLimit } from '../config/libraryLimits.js';
import { embeddingsConfig } from '../config/embeddingsConfig.js';
import { ConfigError } from '../config/env.js';
import { embeddingsClient } from '../model/embeddings/embeddingsClient.js';
import {
  DEFAULT_DOCUMENT_LIMITS,
  DOCUMENT_LIMIT_NAMES,
  type DocumentLimitName,
  type DocumentLimits,
} from '../sources/library/extract/limits.js';
import type { IngestProgress } from '../sources/library/ingest.js';
import {
  checkExcludePattern,
  DEFAULT_LIBRARY_EXCLUDES,
  ExcludePatternError,
  type DocumentSelection,
} from '../sources/library/documentSelection.js';
import { addDocuments } from '../service/library/addDocuments.js';
import { listDocuments } from '../service/library/listDocuments.js';
import { removeDocument } from '../service/library/removeDocument.js';
import { addDatabaseOption, CliError, withDatabase } from './options.js';

/** The option that overrides each per-document limit for one `library add` (the environment sets the default). */
const LIMIT_OPTIONS: {
  readonly [Name in DocumentLimitName]: { readonly flag: string; readonly key: string; readonly help: string };
} = {
  fileBytes: { flag: '--max-file-bytes', key: 'maxFileBytes', help: 'largest file, in bytes' },
  textChars: { flag: '--max-text-chars', key: 'maxTextChars', help: 'most characters of extracted text per document' },
  passages: { flag: '--max-passages', key: 'maxPassages', help: 'most passages per document' },
  pdfPages: { flag: '--max-pdf-pages', key: 'maxPdfPages', help: 'most pages per PDF' },
  pdfExpandedBytes: {
    flag: '--max-pdf-expanded-bytes',
    key: 'maxPdfExpandedBytes',
    help: 'most bytes a PDF’s compressed streams may expand to',
  },
};

const describeProgress = (p: IngestProgress): string => {
  const position = `[${p.index}/${p.total}]`;
  const raise =
    p.limit === undefined
      ? ''
      : `; raise it with ${LIMIT_OPTIONS[p.limit].flag} or ${LIBRARY_LIMIT_SETTINGS[p.limit].variable}`;
  if (p.outcome === 'failed' || p.outcome === 'refused' || p.outcome === 'skipped')
    return `${position} ${p.outcome.padEnd(9)} ${p.path}: ${p.reason ?? 'unknown error'}${raise}`;
  return `${position} ${p.outcome.padEnd(9)} ${p.path} (${counted(p.passages, 'passage')})`;
};

/** HELIX_EMBEDDINGS_* as the server reads them; a bad value stops the command as configuration. */
const embedderFromEnv = () => {
  const settings = embeddingsConfig(process.env, process.env.NODE_ENV === 'production');
  return settings === undefined ? undefined : embeddingsClient(settings);
};

/**
 * The environment's limits (a bad HELIX_LIBRARY_MAX_* is a configuration error), with any given on
 * the command line in their place (a bad option value is invalid input).
 */
const limitsFor = (options: Readonly<Record<string, string | undefined>>): DocumentLimits => {
  const limits: Record<DocumentLimitName, number> = { ...libraryLimits(process.env) };
  for (const limit of DOCUMENT_LIMIT_NAMES) {
    const { flag, key } = LIMIT_OPTIONS[limit];
    const raw = options[key];
    try {
      if (raw !== undefined) limits[limit] = parseLibraryLimit(limit, flag, raw);
    } catch (error) {
      if (error instanceof ConfigError) throw new CliError(error.message, 2);
      throw error;
    }
  }
  return limits;
};

/** `--exclude` patterns as given (repeatable), checked before anything is read; `--no-default-excludes` drops the defaults. */
const selectionFor = (options: { exclude?: string[]; defaultExcludes?: boolean }): DocumentSelection => {
  const exclude = options.exclude ?? [];
  try {
    for (const pattern of exclude) checkExcludePattern(pattern);
  } catch (error) {
    if (error instanceof ExcludePatternError) throw new CliError(error.message, 2);
    throw error;
  }
  return { exclude, defaultExcludes: options.defaultExcludes !== false };
};

const collect = (value: string, previous: string[]): string[] => [...previous, value];

const addCommand = (): Command => {
  const add = addDatabaseOption(
    new Command('add')
      .description('index Markdown, text, HTML and PDF files (directories are walked)')
      .argument('<paths...>')
      .option(
        '--exclude <pattern>',
        'skip what this .gitignore-style pattern matches under a directory added, e.g. "_build/" or "*.rst.txt" (repeatable)',
        collect,
        [],
      )
      .option(
        '--no-default-excludes',
        `walk everything, including the default excludes (${DEFAULT_LIBRARY_EXCLUDES.join(' ')})`,
      ),
  );
  for (const limit of DOCUMENT_LIMIT_NAMES) {
    const { flag, help } = LIMIT_OPTIONS[limit];
    add.option(
      `${flag} <n>`,
      `${help} (default: $${LIBRARY_LIMIT_SETTINGS[limit].variable} or ${DEFAULT_DOCUMENT_LIMITS[limit]})`,
    );
  }
  type AddOptions = { database?: string; exclude?: string[]; defaultExcludes?: boolean } & Record<string, unknown>;
  return add.action(async (paths: string[], options: AddOptions) => {
    const limits = limitsFor(options as Record<string, string | undefined>);
    const selection = selectionFor(options);
    const embedder = embedderFromEnv();
    await withDatabase(options, async (database) => {
      const deps = embedder === undefined ? database.library : { ...database.library, embedder };
      const report = await addDocuments(deps, paths, limits, selection, (p) =>
        process.stderr.write(`${describeProgress(p)}\n`),
      );
      process.stdout.write(
        `library: ${report.added} added, ${report.updated} updated, ${report.unchanged} unchanged, ${report.skipped} skipped, ${report.failed} failed, ${report.refused} refused; ${counted(report.passages, 'passage')} indexed\n`,
      );
      if (report.embedded !== undefined)
        process.stdout.write(`library: ${counted(report.embedded, 'passage')} embedded\n`);
      const notIndexed = report.failed + report.refused;
      if (notIndexed > 0) {
        throw new CliError(
          `${counted(notIndexed, 'file')} could not be indexed${report.refused > 0 ? ` (${report.refused} refused by a per-document limit)` : ''}`,
        );
      }
      if (report.embeddingError !== undefined) {
        throw new CliError(
          `embedding stopped: ${report.embeddingError}; the documents are indexed and searchable lexically, and \`helix library add\` embeds the rest next time`,
        );
      }
    });
  });
};

export const libraryCommand = (): Command => {
  const library = new Command('library').description('the research library (logical scope research_library)');
  library.addCommand(addCommand());

  addDatabaseOption(library.command('list').description('list indexed documents')).action(
    async (options: { database?: string }) => {
      await withDatabase(options, async (database) => {
        const documents = await listDocuments(database.library);
        if (documents.length === 0)
          process.stdout.write('the library is empty; add documents with `helix library add PATH…`\n');
        for (const d of documents) {
          process.stdout.write(
            `${d.docId}\t${d.displayPath}\t${d.mediaType}\t${counted(d.passageCount, 'passage')}\t${d.title}\n`,
          );
        }
      });
    },
  );

  addDatabaseOption(
    library.command('remove').description('remove a document by id (doc_…) or by path').argument('<document>'),
  ).action(async (document: string, options: { database?: string }) => {
    await withDatabase(options, async (database) => {
      const target = await removeDocument(database.library, document);
      if (target === undefined) throw new CliError(`no library document ${document.slice(0, 200)}`);
      process.stdout.write(`removed ${target.docId} ${target.displayPath}\n`);
    });
  });
  return library;
};
