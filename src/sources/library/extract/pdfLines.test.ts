import { describe, expect, it } from 'vitest';
import { PageLines, type TextItem } from './pdfLines.js';

const item = (str: string, y: number, hasEOL = false, size = 10.9): TextItem => ({
  str,
  hasEOL,
  transform: [size, 0, 0, size, 90, y],
});

const linesOf = (items: readonly TextItem[]): { lines: string[]; chars: number } => {
  const page = new PageLines();
  for (const each of items) page.add(each);
  const { chars } = page;
  return { lines: page.finish().map((line) => line.text), chars };
};

describe('PageLines', () => {
  it('ends a line where pdf.js does, and where the text moves to another baseline without one', () => {
    // Page 94 of the Asymptote manual: the running header runs on into a caption 137 points lower.
    const { lines, chars } = linesOf([
      item('Chapter 7: LaTeX usage', 733.9),
      item(' ', 733.9),
      item('89', 733.9),
      item('Here is a venn diagram produced with Asymptote:', 596.7),
      item('', 524.9, true),
      item('A', 524.9),
      item(' ', 524.9),
      item('B', 524.9, true),
    ]);
    expect(lines).toEqual(['Chapter 7: LaTeX usage 89', 'Here is a venn diagram produced with Asymptote:', 'A B']);
    expect(chars).toBe(lines.join('\n').length + 1);
  });

  it('keeps a superscript and a subscript on their line, and reads items with no position or no string', () => {
    const { lines } = linesOf([
      item('x', 700),
      item('2', 704, false, 7),
      item(' + y', 700),
      item('i', 697, false, 7),
      { str: ' end' },
      // A marked-content item carries no string: it is no text and ends nothing.
      { hasEOL: true } as TextItem,
      { str: '', hasEOL: true },
      item('next', 687, true),
    ]);
    expect(lines).toEqual(['x2 + yi end', 'next']);
  });

  it('records each line’s type size as its largest item’s', () => {
    const page = new PageLines();
    page.add(item('Heading', 700, false, 16));
    page.add(item(' text', 700, true, 10));
    expect(page.finish()).toEqual([{ text: 'Heading text', size: 16 }]);
  });
});
