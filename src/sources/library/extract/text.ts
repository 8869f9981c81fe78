import { toSingleLine, type DraftDocument } from './assemble.js';

/** A first line longer than this is prose, not a title. */
const MAX_TITLE_LINE = 120;

/** The first non-blank line when it is short enough to read as a title; null otherwise. */
export const firstLineTitle = (text: string): string | null => {
  const line = text.split(/\r\n?|\n/).find((candidate) => candidate.trim() !== '');
  if (line === undefined) return null;
  const title = toSingleLine(line);
  return title.length <= MAX_TITLE_LINE ? title : null;
};

export const extractPlainText = (source: string): DraftDocument => ({
  title: firstLineTitle(source),
  sections: [{ heading: null, page: null, body: source }],
});
