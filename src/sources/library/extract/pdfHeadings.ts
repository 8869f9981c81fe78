/**
 * Headings of a PDF, read from its type sizes: PDF text has no heading markup, but a manual's
 * headings are set larger than its body text. The body size is the size most characters are set
 * in; a short line set at least 15 % larger, that does not end like a sentence, is a heading, and
 * the larger its size the higher its level. A document set in one size has no headings: its
 * sections stay one per page, as before.
 */
import { HEADING_PATH_SEPARATOR } from '../../../domain/headingPath.js';
import type { DraftSection } from './assemble.js';

export interface PdfLine {
  readonly text: string;
  /** The line's type size in points (its largest item's). */
  readonly size: number;
}

const HEADING_RATIO = 1.15;
const MAX_HEADING_CHARS = 120;
const MAX_LEVELS = 4;

/** Sizes are compared at half-point steps, so 11.98 and 12 are one size. */
const rounded = (size: number): number => Math.round(size * 2) / 2;

const bodySize = (pages: readonly (readonly PdfLine[])[]): number => {
  const chars = new Map<number, number>();
  for (const line of pages.flat()) {
    const size = rounded(line.size);
    chars.set(size, (chars.get(size) ?? 0) + line.text.trim().length);
  }
  let best = 0;
  let most = -1;
  for (const [size, n] of chars) if (n > most || (n === most && size < best)) [best, most] = [size, n];
  return best;
};

const looksLikeHeading = (line: PdfLine, body: number): boolean => {
  const text = line.text.trim();
  return (
    body > 0 &&
    rounded(line.size) >= body * HEADING_RATIO &&
    text.length > 0 &&
    text.length <= MAX_HEADING_CHARS &&
    /\p{L}/u.test(text) &&
    !/[.,;:]$/.test(text)
  );
};

/** Heading size → level (1 the largest), for the few largest sizes that set headings. */
const levelsOf = (pages: readonly (readonly PdfLine[])[], body: number): Map<number, number> => {
  const sizes = [
    ...new Set(
      pages
        .flat()
        .filter((l) => looksLikeHeading(l, body))
        .map((l) => rounded(l.size)),
    ),
  ];
  sizes.sort((a, b) => b - a);
  return new Map(sizes.slice(0, MAX_LEVELS).map((size, index) => [size, index + 1]));
};

interface PathEntry {
  readonly level: number;
  text: string;
}

/**
 * One section per heading and per page: a page that starts inside a section continues it under
 * the same heading path, so a passage still cites the page it came from.
 */
export const pdfSections = (pages: readonly (readonly PdfLine[])[]): DraftSection[] => {
  const body = bodySize(pages);
  const levels = levelsOf(pages, body);
  const path: PathEntry[] = [];
  const sections: DraftSection[] = [];
  const headingOf = (): string | null =>
    path.length === 0 ? null : path.map((entry) => entry.text).join(HEADING_PATH_SEPARATOR);
  pages.forEach((lines, index) => {
    let current = { heading: headingOf(), page: index + 1, body: '' };
    let previousLevel: number | undefined;
    for (const line of lines) {
      const level = looksLikeHeading(line, body) ? levels.get(rounded(line.size)) : undefined;
      const top = path.at(-1);
      if (level !== undefined && level === previousLevel && top !== undefined) {
        // A heading set over two lines is one heading.
        top.text = `${top.text} ${line.text.trim()}`;
        current.heading = headingOf();
      } else if (level !== undefined) {
        if (current.body.trim() !== '' || current.heading !== headingOf()) sections.push(current);
        while ((path.at(-1)?.level ?? 0) >= level) path.pop();
        path.push({ level, text: line.text.trim() });
        current = { heading: headingOf(), page: index + 1, body: '' };
      }
      current.body += `${line.text}\n`;
      previousLevel = level;
    }
    sections.push(current);
  });
  return sections;
};
