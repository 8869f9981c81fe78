import { Command } from 'commander';
import { ingestPaths, type IngestProgress } from '../sources/library/ingest.js';
import { addDatabaseOption, CliError, withStore } from './options.js';

const describeProgress = (p: IngestProgress): string => {
  const position = `[${p.index}/${p.total}]`;
  if (p.outcome === 'failed') return `${position} failed    ${p.path}: ${p.reason ?? 'unknown error'}`;
  return `${position} ${p.outcome.padEnd(9)} ${p.path} (${p.passages} passages)`;
};

export const libraryCommand = (): Command => {
  const library = new Command('library').description('the research library (logical scope research_library)');

  addDatabaseOption(
    library.command('add').description('index Markdown, text, HTML and PDF files (directories are walked)').argument('<paths...>'),
  ).action(async (paths: string[], options: { database?: string }) => {
    await withStore(options, async (store) => {
      const report = await ingestPaths(store, paths, Date.now, (p) => process.stderr.write(`${describeProgress(p)}\n`));
      process.stdout.write(
        `library: ${report.added} added, ${report.updated} updated, ${report.unchanged} unchanged, ${report.failed} failed; ${report.passages} passages indexed\n`,
      );
      if (report.failed > 0) throw new CliError(`${report.failed} file(s) could not be indexed`);
    });
  });

  addDatabaseOption(library.command('list').description('list indexed documents')).action(async (options: { database?: string }) => {
    await withStore(options, async (store) => {
      const documents = await store.read.library.list();
      if (documents.length === 0) process.stdout.write('the library is empty; add documents with `helix library add PATH…`\n');
      for (const d of documents) {
        process.stdout.write(`${d.docId}\t${d.displayPath}\t${d.mediaType}\t${d.passageCount} passages\t${d.title}\n`);
      }
    });
  });

  addDatabaseOption(library.command('remove').description('remove a document by id (doc_…) or by path').argument('<document>')).action(
    async (document: string, options: { database?: string }) => {
      await withStore(options, async (store) => {
        const all = await store.read.library.list();
        const target = all.find((d) => d.docId === document || d.displayPath === document || d.origin === document);
        if (target === undefined) throw new CliError(`no library document ${document.slice(0, 200)}`);
        await store.transaction((uow) => uow.library.remove(target.docId));
        process.stdout.write(`removed ${target.docId} ${target.displayPath}\n`);
      });
    },
  );
  return library;
};
