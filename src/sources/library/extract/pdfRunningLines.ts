/**
 * Running headers, footers and page numbers of a PDF: the lines a layout repeats at the top or the
 * bottom of its pages ("Chapter 6: Programming 42", "3"). Left in, each is glued to the first or
 * last sentence of its page's text ("Chapter 6: Programming 42 The default line cap, …") and
 * matches every question about its chapter. A page's first or last line is a running line when the
 * same line, its numbers aside, opens (or closes) at least MIN_RUNNING_PAGES pages and at least
 * RUNNING_SHARE of the pages from its first such page to its last: a chapter's header runs over the
 * chapter, a line that merely recurs is scattered. A line of a number alone there is a page number
 * wherever it recurs. Measured on the Asymptote manual (196 pages): its nine chapter headers open
 * every page of their chapters (4 to 75 pages each), and no line of text opens or closes two pages.
 */
import type { PdfLine } from './pdfHeadings.js';

export const MIN_RUNNING_PAGES = 2;
export const RUNNING_SHARE = 0.5;
/** A running line is a header's length, not a paragraph's. */
const MAX_RUNNING_CHARS = 100;

type Edge = 'top' | 'bottom';

const PAGE_NUMBER = '#';

/** The line with its numbers (page, chapter, section) masked: what stays the same from page to page. */
const skeletonOf = (line: string): string => {
  const text = line.trim().replace(/\s+/g, ' ');
  // Front matter is numbered in roman numerals.
  return /^[ivxlcdm]+$/i.test(text) ? PAGE_NUMBER : text.replace(/\d+/g, PAGE_NUMBER);
};

/** The index of the page's first (or last) line with any text; undefined for a blank page. */
const edgeLine = (lines: readonly PdfLine[], edge: Edge): number | undefined => {
  const order = edge === 'top' ? lines.keys() : [...lines.keys()].reverse();
  for (const index of order) if ((lines[index]?.text.trim() ?? '') !== '') return index;
  return undefined;
};

const isRunning = (skeleton: string, pages: readonly number[]): boolean => {
  const first = pages[0];
  const last = pages.at(-1);
  if (first === undefined || last === undefined || pages.length < MIN_RUNNING_PAGES) return false;
  if (skeleton === PAGE_NUMBER) return true;
  // A line with no letter or digit ("}" closing a listing) is content, however often it recurs.
  if (!/[\p{L}\p{N}]/u.test(skeleton) || skeleton.length > MAX_RUNNING_CHARS) return false;
  return pages.length >= RUNNING_SHARE * (last - first + 1);
};

/** The pages without their running headers, footers and page numbers; every other line stays as it was. */
export const withoutRunningLines = (pages: readonly (readonly PdfLine[])[]): PdfLine[][] => {
  const dropped = pages.map(() => new Set<number>());
  for (const edge of ['top', 'bottom'] as const) {
    const families = new Map<string, { pages: number[]; lines: number[] }>();
    pages.forEach((lines, page) => {
      const index = edgeLine(lines, edge);
      const line = index === undefined ? undefined : lines[index];
      if (index === undefined || line === undefined) return;
      const skeleton = skeletonOf(line.text);
      const family = families.get(skeleton) ?? { pages: [], lines: [] };
      family.pages.push(page);
      family.lines.push(index);
      families.set(skeleton, family);
    });
    for (const [skeleton, family] of families) {
      if (!isRunning(skeleton, family.pages)) continue;
      for (const [at, page] of family.pages.entries()) dropped[page]?.add(family.lines[at] ?? -1);
    }
  }
  return pages.map((lines, page) => lines.filter((_, index) => !dropped[page]?.has(index)));
};
