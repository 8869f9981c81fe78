/** One cell of a table row and the header of the column it sits in ('' when the column has none). */
export interface LabelledCell {
  readonly header: string;
  readonly value: string;
}

/**
 * A table row as one line that names each value by its column, `Name: port; Default: 1522`, so a
 * passage quoting it says which value is which. Empty cells are left out; a cell under no header
 * is its value alone.
 */
export const labelledRow = (cells: readonly LabelledCell[]): string =>
  cells
    .filter((cell) => cell.value !== '')
    .map((cell) => (cell.header === '' ? cell.value : `${cell.header}: ${cell.value}`))
    .join('; ');
