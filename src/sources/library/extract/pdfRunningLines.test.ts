import { describe, expect, it } from 'vitest';
import type { PdfLine } from './pdfHeadings.js';
import { withoutRunningLines } from './pdfRunningLines.js';

const page = (...texts: string[]): PdfLine[] => texts.map((text) => ({ text, size: 10 }));
const texts = (pages: readonly (readonly PdfLine[])[]): string[][] => pages.map((lines) => lines.map((l) => l.text));

describe('withoutRunningLines', () => {
  it('drops a chapter header over its chapter and the page numbers, keeping every other line', () => {
    const pages = [
      page('1', '1 Description', 'Asymptote is a language.'),
      page('Chapter 1: Description 2', 'It draws figures.', '2'),
      page('Chapter 1: Description 3', 'It typesets labels.', '3'),
      page('4', '2 Installation', 'Install it.'),
      page('Chapter 2: Installation 5', 'Search paths come first.', '5'),
      page('Chapter 2: Installation 6', 'Then the home directory.', '6'),
    ];
    expect(texts(withoutRunningLines(pages))).toEqual([
      ['1 Description', 'Asymptote is a language.'],
      ['It draws figures.'],
      ['It typesets labels.'],
      ['2 Installation', 'Install it.'],
      ['Search paths come first.'],
      ['Then the home directory.'],
    ]);
  });

  it('drops the alternating headers of a two-sided layout, and roman page numbers', () => {
    const pages = [
      page('i', 'Table of Contents'),
      page('ii', 'More contents'),
      page('Manual Title 10', 'Even page text.'),
      page('Chapter 3: Usage 11', 'Odd page text.'),
      page('Manual Title 12', 'Even again.'),
      page('Chapter 3: Usage 13', 'Odd again.'),
    ];
    expect(texts(withoutRunningLines(pages))).toEqual([
      ['Table of Contents'],
      ['More contents'],
      ['Even page text.'],
      ['Odd page text.'],
      ['Even again.'],
      ['Odd again.'],
    ]);
  });

  it('keeps a line that merely recurs at page edges, a line with no word, and a long line', () => {
    const filler = Array.from({ length: 6 }, (_, index) => page(`Filler page ${String.fromCharCode(97 + index)}.`));
    const long = `Chapter 4 ${'x'.repeat(120)}`;
    const pages = [
      page('Example:', 'draw(unitcircle);', '}'),
      ...filler,
      page('Example:', 'fill(unitsquare);', '}'),
      page(long, 'a'),
      page(long, 'b'),
    ];
    expect(texts(withoutRunningLines(pages))).toEqual(texts(pages));
  });

  it('reads blank pages, one-line pages and no pages at all', () => {
    expect(withoutRunningLines([])).toEqual([]);
    const pages = [page(), page('  '), page('Only line'), page('Only line')];
    expect(texts(withoutRunningLines(pages))).toEqual([[], ['  '], [], []]);
  });
});
