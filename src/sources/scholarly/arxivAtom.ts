import { isArxivId } from './arxivIds.js';
import { findElement, xmlToPlainText } from './xmlText.js';

export interface ArxivEntry {
  /** Versioned id, e.g. `2303.08774v6`. */
  readonly id: string;
  readonly title: string;
  readonly summary: string;
  readonly published: string | undefined;
  readonly doi: string | undefined;
}

const childText = (xml: string, name: string): string | undefined => {
  const element = findElement(xml, name);
  return element === undefined ? undefined : xmlToPlainText(element.inner);
};

const ABS_ID = /^https?:\/\/(?:www\.|export\.)?arxiv\.org\/abs\/(\S+)$/;

/**
 * Reads the entries of an arXiv API Atom feed, or undefined if the body is not a feed. A tag walk,
 * not a general XML parser: the feed's shape is fixed and flat, and a parser would be a new
 * dependency for five fields. Entries whose id is not an arXiv abs URL are skipped — that is how
 * the API reports a bad query (an entry with id `http://arxiv.org/api/errors#…`).
 */
export const parseArxivFeed = (xml: string): ArxivEntry[] | undefined => {
  if (findElement(xml, 'feed') === undefined) return undefined;
  const entries: ArxivEntry[] = [];
  for (let entry = findElement(xml, 'entry'); entry !== undefined; entry = findElement(xml, 'entry', entry.end)) {
    const id = ABS_ID.exec(childText(entry.inner, 'id') ?? '')?.[1];
    if (id === undefined || !isArxivId(id)) continue;
    entries.push({
      id,
      title: childText(entry.inner, 'title') ?? '',
      summary: childText(entry.inner, 'summary') ?? '',
      published: childText(entry.inner, 'published'),
      doi: childText(entry.inner, 'arxiv:doi'),
    });
  }
  return entries;
};
