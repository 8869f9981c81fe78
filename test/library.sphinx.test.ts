import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ingestPaths } from '../src/sources/library/ingest.js';
import { DEFAULT_DOCUMENT_LIMITS } from '../src/sources/library/extract/limits.js';
import type { DocumentSelection } from '../src/sources/library/documentSelection.js';
import { SPHINX_PAGES, writeSphinxSite } from './support/sphinxSite.js';
import { storeFlavours, type TestStore } from './support/stores.js';

// Issue 27 item 20: a Sphinx HTML tree was indexed twice (each page and its _sources/*.rst.txt copy,
// cited with raw markup), and its headings kept the "¶" of the theme's headerlinks.
describe.each(storeFlavours())('helix library add on a Sphinx HTML tree, on $name', (flavour) => {
  let dir: string;
  let site: string;
  let t: TestStore;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'helix-sphinx-'));
    site = writeSphinxSite(dir);
  });
  afterEach(async () => t?.dispose());
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const add = async (selection?: DocumentSelection) => {
    t = await flavour.create();
    return ingestPaths(t.store, [site], () => 1_000, undefined, DEFAULT_DOCUMENT_LIMITS, undefined, selection);
  };
  const indexed = async () => (await t.store.read.library.list()).map((d) => basename(d.origin)).sort();
  const passagesOf = async () => {
    const documents = await t.store.read.library.list();
    return (await Promise.all(documents.map((d) => t.store.read.library.passages(d.docId, 0, 1_000)))).flat();
  };

  it('indexes each page once, as HTML, with headings and text free of headerlinks', async () => {
    const report = await add();
    expect(report).toMatchObject({ added: 3, failed: 0, refused: 0 });
    expect(await indexed()).toEqual([...SPHINX_PAGES]);
    const passages = await passagesOf();
    expect(passages.map((p) => p.heading).sort()).toEqual(
      expect.arrayContaining(['Usage', 'Usage › Options', 'Usage › Options › --quiet']),
    );
    for (const passage of passages) {
      expect(passage.heading ?? '').not.toContain('¶');
      expect(passage.text).not.toContain('¶');
    }
    // A search finds the page, not a second copy of it in reStructuredText.
    const hits = await t.store.read.library.search({ terms: ['gearbox', 'quiet'], phrases: [] }, 10);
    expect(new Set(hits.map((hit) => basename(hit.document.displayPath)))).toEqual(new Set(SPHINX_PAGES));
    for (const hit of hits) expect(hit.passage.text).not.toMatch(/\.\. option::|={3,}|-{3,}/);
  });

  it('skips what --exclude names as well', async () => {
    expect(await add({ exclude: ['changelog.html'], defaultExcludes: true })).toMatchObject({ added: 2 });
    expect(await indexed()).toEqual(['index.html', 'usage.html']);
  });

  it('with --no-default-excludes walks the source copies, assets and hidden files too', async () => {
    expect(await add({ exclude: ['*.css'], defaultExcludes: false })).toMatchObject({ added: 7, failed: 0 });
    expect(await indexed()).toEqual(
      [...SPHINX_PAGES, 'changelog.rst.txt', 'gearbox.txt', 'index.rst.txt', 'usage.rst.txt'].sort(),
    );
  });
});
