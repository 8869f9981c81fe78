import type { PdfLine } from './pdfHeadings.js';

/** A text item as pdf.js's text content gives it; every field is checked before use. */
export interface TextItem {
  readonly str?: unknown;
  readonly hasEOL?: unknown;
  /** The text matrix: its vertical scale is the type size, its last entry the baseline's height. */
  readonly transform?: unknown;
}

const sizeOf = (item: TextItem): number => {
  const matrix = item.transform;
  if (!Array.isArray(matrix) || matrix.length < 4) return 0;
  const [, , c, d] = matrix as number[];
  return Math.hypot(c ?? 0, d ?? 0);
};

/** Where on the page the item's baseline is. */
const baselineOf = (item: TextItem): number | undefined => {
  const matrix = item.transform;
  const y: unknown = Array.isArray(matrix) ? matrix[5] : undefined;
  return typeof y === 'number' && Number.isFinite(y) ? y : undefined;
};

/**
 * A page's lines, built item by item: the text unpdf's extractText builds (each item's string, a
 * line break where pdf.js ends a line), with each line's type size (its largest item's). pdf.js
 * does not always end a line where the text moves to another baseline (the labels of a figure run
 * on after the page header): a jump of more than the type size starts a new line. The baseline
 * followed is the latest item's, so a superscript's small shift never ends one.
 */
export class PageLines {
  private readonly lines: PdfLine[] = [];
  private line = { text: '', size: 0 };
  private baseline: number | undefined;
  /** Characters added so far, a line break counted for each line ended. */
  chars = 0;

  add(item: TextItem): void {
    if (!('str' in item)) return;
    const text = String(item.str);
    const words = text.trim() !== '';
    const y = baselineOf(item);
    if (words && y !== undefined && this.baseline !== undefined) {
      if (Math.abs(y - this.baseline) > Math.max(sizeOf(item), this.line.size, 1)) this.endLine();
    }
    if (words && y !== undefined) this.baseline = y;
    this.line.text += text;
    this.chars += text.length;
    if (words) this.line.size = Math.max(this.line.size, sizeOf(item));
    if (item.hasEOL === true) this.endLine();
  }

  /** Every line, the one in progress included. */
  finish(): PdfLine[] {
    if (this.line.text !== '') this.lines.push(this.line);
    this.line = { text: '', size: 0 };
    return this.lines;
  }

  private endLine(): void {
    this.lines.push(this.line);
    this.line = { text: '', size: 0 };
    this.baseline = undefined;
    this.chars += 1;
  }
}
