import type { DomNode, FormatCallback } from 'html-to-text';
import { toSingleLine } from './assemble.js';
import { type LabelledCell, labelledRow } from './tableRow.js';

/*
 * A data table is read row by row, each row one line that names every value by its column:
 * `Name: port; Default: 1522`. A row read as words ("port 1522") loses which value is which, and
 * html-to-text's own table layout pads columns into wrapped text. A table without a header row
 * reads the same way with its values alone (`int; accepts positive integers`), except a row whose
 * cells hold several blocks (a layout table, a note box): its cells stay blocks, one after another.
 */

/** A cell as html-to-text's builder hands it back: its text and the span it was closed with. */
interface PrintedCell {
  readonly colspan: number;
  readonly text: string;
}

const ROW_GROUPS = new Set(['thead', 'tbody', 'tfoot']);

const isTag = (node: DomNode, names: ReadonlySet<string> | string): boolean =>
  node.type === 'tag' && (typeof names === 'string' ? node.name === names : names.has(node.name ?? ''));

const CELLS = new Set(['td', 'th']);

interface Row {
  readonly cells: readonly DomNode[];
  readonly inHead: boolean;
}

/** The table's own rows, in order: those of a nested table belong to that table. */
const rowsOf = (table: DomNode): Row[] => {
  const rows: Row[] = [];
  const take = (row: DomNode, inHead: boolean): void => {
    rows.push({ cells: row.children.filter((child) => isTag(child, CELLS)), inHead });
  };
  for (const child of table.children) {
    if (isTag(child, 'tr')) take(child, false);
    else if (isTag(child, ROW_GROUPS)) {
      for (const row of child.children) if (isTag(row, 'tr')) take(row, child.name === 'thead');
    }
  }
  return rows;
};

/** The first row names the columns when it is in `<thead>` or all its cells are `<th>`. */
const hasHeaderRow = (rows: readonly Row[]): boolean => {
  const first = rows[0];
  if (first === undefined || first.cells.length === 0 || rows.length < 2) return false;
  return first.inHead || first.cells.every((cell) => cell.name === 'th');
};

/**
 * A span counts only up to the table's widest row, so `colspan="1000"` costs no more than the
 * cells the page really has (html-to-text's grid expanded it: forty such cells took 11 s).
 * `rowspan` is not followed at all: a value spanning rows is read in its first row only.
 */
const spanOf = (cell: DomNode | PrintedCell, room: number): number => {
  const declared = 'colspan' in cell ? cell.colspan : Number(cell.attribs?.colspan);
  return Number.isInteger(declared) && declared > 1 ? Math.max(1, Math.min(declared, room)) : 1;
};

const rowLine = (columns: readonly string[], cells: readonly PrintedCell[]): string => {
  const labelled: LabelledCell[] = [];
  let column = 0;
  for (const cell of cells) {
    labelled.push({ header: columns[column] ?? '', value: toSingleLine(cell.text) });
    column += spanOf(cell, columns.length - column);
  }
  return labelledRow(labelled);
};

/** A row without a header: its values on one line, unless a cell holds more than one line of text. */
const headerlessRow = (cells: readonly PrintedCell[]): string =>
  cells.some((cell) => cell.text.trim().includes('\n'))
    ? cells
        .map((cell) => cell.text.trim())
        .filter((text) => text !== '')
        .join('\n\n')
    : rowLine([], cells);

/** Each data row becomes its own paragraph, so passages keep rows whole. */
const printRows =
  (width: number, headed: boolean) =>
  (rows: PrintedCell[][]): string => {
    if (!headed)
      return rows
        .map(headerlessRow)
        .filter((row) => row !== '')
        .join('\n\n');
    const [header = [], ...body] = rows;
    const columns: string[] = [];
    for (const cell of header) {
      const name = toSingleLine(cell.text);
      for (let span = spanOf(cell, width - columns.length); span > 0; span -= 1) columns.push(name);
    }
    return body
      .map((cells) => rowLine(columns, cells))
      .filter((line) => line !== '')
      .join('\n\n');
  };

export const formatTable: FormatCallback = (element, walk, builder) => {
  const rows = rowsOf(element);
  const captions = element.children.filter((child) => isTag(child, 'caption'));
  if (captions.length > 0) {
    builder.openBlock({ leadingLineBreaks: 2 });
    walk(captions, builder);
    builder.closeBlock({ trailingLineBreaks: 2 });
  }
  const width = rows.reduce((widest, row) => Math.max(widest, row.cells.length), 0);
  builder.openTable();
  for (const row of rows) {
    builder.openTableRow();
    for (const cell of row.cells) {
      builder.openTableCell();
      walk(cell.children, builder);
      builder.closeTableCell({ colspan: spanOf(cell, width), rowspan: 1 });
    }
    builder.closeTableRow();
  }
  builder.closeTable({
    tableToString: printRows(width, hasHeaderRow(rows)),
    leadingLineBreaks: 2,
    trailingLineBreaks: 2,
  });
};
