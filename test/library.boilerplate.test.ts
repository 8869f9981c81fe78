import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestPaths } from '../src/sources/library/ingest.js';
import { storeFlavours, type TestStore } from './support/stores.js';

const FOOTER = '<div id="footer">Last updated 2024-05-31 00:35:55 UTC</div>';
const PAGES = 6;
const pageHtml = (index: number, extra = ''): string =>
  `<title>Page ${index}</title><h2>Topic ${index}</h2><p>Only page ${index} explains widget ${index}.</p>${extra}${FOOTER}`;

describe('helix library add drops boilerplate repeated across the batch', () => {
  describe.each(storeFlavours())('on $name', (flavour) => {
    let t: TestStore;
    let dir: string;
    beforeAll(async () => {
      t = await flavour.create();
      dir = mkdtempSync(join(tmpdir(), 'helix-lib-boilerplate-'));
      for (let index = 0; index < PAGES; index += 1) writeFileSync(join(dir, `page${index}.html`), pageHtml(index));
    });
    afterAll(async () => {
      await t.dispose();
      rmSync(dir, { recursive: true, force: true });
    });

    const passagesOf = async (index: number): Promise<string[]> => {
      const docs = await t.store.read.library.list();
      const doc = docs.find((d) => d.displayPath.endsWith(`page${index}.html`));
      if (doc === undefined) throw new Error(`page${index}.html is not in the library`);
      return (await t.store.read.library.passages(doc.docId, 0, 1_000)).map((p) => p.text);
    };

    it('stores no footer the pages share, keeps each page’s own text, and re-adding unchanged files writes nothing', async () => {
      expect(await ingestPaths(t.store, [dir], () => 1_000)).toMatchObject({ added: PAGES, unchanged: 0 });
      expect(await passagesOf(0)).toEqual(['Topic 0\n\nOnly page 0 explains widget 0.']);
      expect(await t.store.read.library.search({ terms: ['updated'], phrases: [] }, 10)).toEqual([]);
      const before = await t.store.read.library.list();

      expect(await ingestPaths(t.store, [dir], () => 2_000)).toMatchObject({ added: 0, updated: 0, unchanged: PAGES });
      expect(await t.store.read.library.list()).toEqual(before);
    });

    it('judges a changed page against the whole batch, unchanged pages included', async () => {
      writeFileSync(join(dir, 'page0.html'), pageHtml(0, '<p>A new note.</p>'));
      expect(await ingestPaths(t.store, [dir], () => 3_000)).toMatchObject({ updated: 1, unchanged: PAGES - 1 });
      expect(await passagesOf(0)).toEqual(['Topic 0\n\nOnly page 0 explains widget 0.\n\nA new note.']);
    });

    it('keeps the footer of a page re-added alone: one file repeats nothing', async () => {
      writeFileSync(join(dir, 'page0.html'), pageHtml(0, '<p>Another note.</p>'));
      expect(await ingestPaths(t.store, [join(dir, 'page0.html')], () => 4_000)).toMatchObject({ updated: 1 });
      expect((await passagesOf(0)).join('\n\n')).toContain('Last updated 2024-05-31 00:35:55 UTC');
    });
  });
});
