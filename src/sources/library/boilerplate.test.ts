import { describe, expect, it } from 'vitest';
import { BoilerplateCounter, withoutBoilerplate } from './boilerplate.js';
import { extractDocument } from './extract/index.js';
import type { ExtractedDocument } from './extract/types.js';
import { splitPassages } from './passages.js';

const FOOTER = '<div id="footer">Last updated\n 2024-05-31 00:35:55 UTC</div>';

const page = (index: number, extra = ''): Promise<ExtractedDocument> =>
  extractDocument(
    `page${index}.html`,
    new TextEncoder().encode(
      `<title>Page ${index}</title><h2>GIT</h2><p>Part of the git suite</p>` +
        `<h2>Topic ${index}</h2><p>Only page ${index} says this.</p>${extra}${FOOTER}`,
    ),
  );

const pages = (count: number, extra: (index: number) => string = () => ''): Promise<ExtractedDocument[]> =>
  Promise.all(Array.from({ length: count }, (_, index) => page(index, extra(index))));

const stripAll = (docs: readonly ExtractedDocument[]): ExtractedDocument[] => {
  const counter = new BoilerplateCounter();
  for (const doc of docs) counter.add(doc);
  const boilerplate = counter.boilerplate();
  return docs.map((doc, index) => withoutBoilerplate(`page${index}.html`, doc, boilerplate, 1_000_000));
};

describe('boilerplate across the documents of a batch', () => {
  it('drops a paragraph every page repeats, with a section that held nothing else, and keeps what one page says', async () => {
    const [first] = stripAll(await pages(6));
    expect(first?.text).toBe('Topic 0\n\nOnly page 0 says this.');
    expect(first?.sections.map((section) => section.heading)).toEqual(['Topic 0']);
    // Passages still cite the stored text exactly.
    for (const passage of splitPassages(first as ExtractedDocument)) {
      expect(first?.text.slice(passage.start, passage.end)).toBe(passage.text);
    }
  });

  it('keeps a heading line every page repeats when its section says something of its own', async () => {
    const docs = stripAll(await pages(6, (index) => `<h2>GIT</h2><p>Page ${index} only.</p>`));
    expect(docs[2]?.text).toBe('Topic 2\n\nOnly page 2 says this.\n\nGIT\n\nPage 2 only.');
  });

  it('keeps a repeated paragraph when fewer than five documents carry it', async () => {
    const [first] = stripAll(await pages(4));
    expect(first?.text).toContain('Last updated 2024-05-31 00:35:55 UTC');
    expect(first?.text).toContain('Part of the git suite');
  });

  it('drops a paragraph only when at least a fifth of the documents carry it', async () => {
    // 30 documents: a fifth is 6. A sentence on 5 of them stays, one on 6 goes.
    const docs = stripAll(
      await pages(30, (index) =>
        [index < 5 ? '<p>On five pages.</p>' : '', index < 6 ? '<p>On six pages.</p>' : ''].join(''),
      ),
    );
    expect(docs[0]?.text).toContain('On five pages.');
    expect(docs[0]?.text).not.toContain('On six pages.');
    expect(docs[0]?.text).not.toContain('Last updated');
  });

  it('leaves a document without boilerplate as it was', async () => {
    const doc = await page(1);
    expect(withoutBoilerplate('page1.html', doc, new Set(), 1_000_000)).toBe(doc);
  });
});
