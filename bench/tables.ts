/** Rows of cells, rendered as padded text for the terminal or as a Markdown table for docs/performance.md. */
export type Rows = readonly (readonly string[])[];

/** First column left-aligned, the rest (figures) right-aligned. */
export const textTable = (rows: Rows): string => {
  const widths = rows[0]?.map((_, col) => Math.max(...rows.map((row) => row[col]?.length ?? 0))) ?? [];
  return rows
    .map((row) =>
      row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col] ?? 0) : cell.padStart(widths[col] ?? 0))).join('   '),
    )
    .join('\n');
};

export const markdownTable = (rows: Rows): string => {
  const [header, ...body] = rows;
  if (header === undefined) return '';
  const line = (row: readonly string[]) => `| ${row.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;
  return [
    line(header),
    `|${header.map((_, col) => (col === 0 ? ' --- ' : ' ---: ')).join('|')}|`,
    ...body.map(line),
  ].join('\n');
};

/** 10000 -> "10k", 1000000 -> "1M": sizes as the JSON keys and the tables name them. */
export const sizeLabel = (n: number): string => {
  if (n >= 1_000_000 && n % 1_000_000 === 0) return `${n / 1_000_000}M`;
  if (n >= 1000 && n % 1000 === 0) return `${n / 1000}k`;
  return String(n);
};

export const round = (n: number, digits: number): number => Number(n.toFixed(digits));
export const metMark = (met: boolean): string => (met ? 'MET' : 'NOT MET');
