import { toSingleLine } from './assemble.js';
import { renderInline } from './markdownInline.js';
import { labelledRow } from './tableRow.js';

export const TABLE_DELIMITER_ROW = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

/** A row's cells: split at each pipe not escaped with a backslash, without the edge pipes. */
export const tableCells = (line: string): string[] => {
  const cells: string[] = [];
  let cell = '';
  for (let index = 0; index < line.length; index += 1) {
    const character = line[index];
    if (character === '\\' && line[index + 1] === '|') {
      cell += '|';
      index += 1;
    } else if (character === '|') {
      cells.push(cell);
      cell = '';
    } else {
      cell += character;
    }
  }
  cells.push(cell);
  if (line.trimStart().startsWith('|')) cells.shift();
  if (line.trimEnd().endsWith('|') && !line.trimEnd().endsWith('\\|')) cells.pop();
  return cells.map((text) => toSingleLine(renderInline(text)));
};

/**
 * A GFM pipe table starting at `lines[start]`: a header row, a delimiter row with as many cells,
 * then body rows up to a blank line or a line without a pipe. Each body row becomes one line,
 * `Header: value; …`, its own paragraph. Null when no table starts there, when its header names
 * nothing or it has no body row (the lines then read as they are written).
 */
export const pipeTableAt = (lines: readonly string[], start: number): { rows: string[]; end: number } | null => {
  const headerLine = lines[start] ?? '';
  const delimiter = lines[start + 1] ?? '';
  if (!headerLine.includes('|') || !delimiter.includes('|') || !TABLE_DELIMITER_ROW.test(delimiter)) return null;
  const headers = tableCells(headerLine);
  if (headers.length !== tableCells(delimiter).length || headers.every((header) => header === '')) return null;
  const rows: string[] = [];
  let end = start + 2;
  for (; end < lines.length; end += 1) {
    const line = lines[end] ?? '';
    if (line.trim() === '' || !line.includes('|')) break;
    const row = labelledRow(tableCells(line).map((value, column) => ({ header: headers[column] ?? '', value })));
    if (row !== '') rows.push(row);
  }
  // A table of a header alone reads as it is written, so its words stay.
  return rows.length === 0 ? null : { rows, end };
};
