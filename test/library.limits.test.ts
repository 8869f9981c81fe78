import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DOCUMENT_LIMITS, type DocumentLimits } from '../src/sources/library/extract/limits.js';
import { ingestPaths, type IngestProgress } from '../src/sources/library/ingest.js';
import { buildFlateBombPdf } from './support/pdfs.js';
import { storeFlavours, type TestStore } from './support/stores.js';

const MIB = 1024 * 1024;
const LIMITS: DocumentLimits = {
  ...DEFAULT_DOCUMENT_LIMITS,
  fileBytes: 2 * MIB,
  textChars: 50_000,
  passages: 20,
  pdfExpandedBytes: 8 * MIB,
};
const sections = (count: number, word: string): string =>
  Array.from({ length: count }, (_, index) => `# Part ${index}\n\n${word} paragraph ${index}.`).join('\n\n');

describe('helix library add with per-document limits', () => {
  let dir: string;
  let bombBytes: number;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'helix-lib-limits-'));
    writeFileSync(join(dir, 'notes.md'), '# Bracket notes\n\nThe bracket is machined from aluminium.\n');
    writeFileSync(join(dir, 'sections.md'), sections(40, 'sectional'));
    writeFileSync(join(dir, 'long.txt'), 'Verbose prose about drift. '.repeat(3_000));
    writeFileSync(join(dir, 'huge.txt'), 'x'.repeat(3 * MIB));
    // The audit's attack: a FlateDecode content stream that expands 500-fold, here to 128 MiB.
    const bomb = await buildFlateBombPdf(128 * MIB);
    bombBytes = bomb.length;
    writeFileSync(join(dir, 'bomb.pdf'), bomb);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe.each(storeFlavours())('on $name', (flavour) => {
    let t: TestStore;
    beforeAll(async () => {
      t = await flavour.create();
    });
    afterAll(async () => t.dispose());

    it('refuses each document over a limit, naming the limit, stores nothing of it, and indexes the rest', async () => {
      const progress: IngestProgress[] = [];
      const names = ['bomb.pdf', 'huge.txt', 'long.txt', 'notes.md', 'sections.md'];
      const report = await ingestPaths(
        t.store,
        names.map((name) => join(dir, name)),
        () => 1_000,
        (p) => progress.push(p),
        LIMITS,
      );

      expect(report).toEqual({ added: 1, updated: 0, unchanged: 0, skipped: 0, refused: 4, failed: 0, passages: 1 });
      const byName = new Map(progress.map((p) => [p.path.split('/').at(-1), p]));
      expect(byName.get('notes.md')).toMatchObject({ outcome: 'added', passages: 1 });
      expect(byName.get('bomb.pdf')).toMatchObject({ outcome: 'refused', limit: 'pdfExpandedBytes', passages: 0 });
      expect(byName.get('huge.txt')).toMatchObject({ outcome: 'refused', limit: 'fileBytes' });
      expect(byName.get('long.txt')).toMatchObject({ outcome: 'refused', limit: 'textChars' });
      expect(byName.get('sections.md')).toMatchObject({ outcome: 'refused', limit: 'passages' });
      expect(byName.get('sections.md')?.reason).toMatch(/more than 20 passages \(the passages limit; stopped at 21\)$/);
      expect(byName.get('huge.txt')?.reason).toMatch(
        new RegExp(`more than ${2 * MIB} bytes of file \\(the fileBytes limit; stopped at ${3 * MIB}\\)$`),
      );

      // The bomb was stopped a sixteenth of the way into its 128 MiB: measured, never handed to pdf.js.
      const reached = Number(/stopped at (\d+)\)$/.exec(byName.get('bomb.pdf')?.reason ?? '')?.[1]);
      expect(reached).toBeGreaterThan(8 * MIB);
      expect(reached).toBeLessThan(8 * MIB + 64 * 1024);
      expect(bombBytes).toBeLessThan(MIB);

      const documents = await t.store.read.library.list();
      expect(documents.map((d) => d.displayPath.split('/').at(-1))).toEqual(['notes.md']);
      expect(await t.store.read.library.countPassages()).toBe(1);
      for (const term of ['dull', 'sectional', 'verbose'])
        expect(await t.store.read.library.search({ terms: [term], phrases: [] }, 5)).toEqual([]);
    });

    it('keeps the indexed version of a document whose new version is refused', async () => {
      const path = join(dir, `evolving-${flavour.name}.md`);
      writeFileSync(path, sections(3, 'original'));
      expect(await ingestPaths(t.store, [path], () => 1_000, undefined, LIMITS)).toMatchObject({
        added: 1,
        passages: 3,
      });
      writeFileSync(path, sections(40, 'rewritten'));
      expect(await ingestPaths(t.store, [path], () => 2_000, undefined, LIMITS)).toMatchObject({
        refused: 1,
        updated: 0,
      });
      const kept = (await t.store.read.library.list()).find((d) => d.origin.endsWith(`evolving-${flavour.name}.md`));
      expect(kept).toMatchObject({ passageCount: 3, updatedAt: 1_000 });
      expect(await t.store.read.library.search({ terms: ['rewritten'], phrases: [] }, 5)).toEqual([]);
      expect((await t.store.read.library.search({ terms: ['original'], phrases: [] }, 5)).length).toBeGreaterThan(0);
    });
  });

  it.skipIf(process.platform === 'win32')(
    'does not read a pipe or a device behind a document name, where a read would never end',
    async () => {
      const { store, dispose } = await storeFlavours()[0]!.create();
      try {
        const fifo = join(dir, 'pipe.md');
        execFileSync('mkfifo', [fifo]);
        const zero = join(dir, 'zero.md');
        symlinkSync('/dev/zero', zero);
        const progress: IngestProgress[] = [];
        const report = await ingestPaths(
          store,
          [fifo, zero, join(dir, 'notes.md')],
          () => 1_000,
          (p) => progress.push(p),
          LIMITS,
        );
        expect(report).toMatchObject({ added: 1, failed: 2 });
        expect(progress.filter((p) => p.outcome === 'failed').map((p) => p.reason)).toEqual([
          'not a regular file',
          'not a regular file',
        ]);
      } finally {
        await dispose();
      }
    },
  );
});
