/**
 * Per-document bounds for `helix library add`. Each one stops a single file (hostile or merely
 * runaway) from taking unbounded memory, disk or time; the work stops as soon as a bound is
 * passed, so nothing is materialised beyond it. (docs/production.md, "Security: untrusted documents")
 */
export const DOCUMENT_LIMIT_NAMES = ['fileBytes', 'textChars', 'passages', 'pdfPages', 'pdfExpandedBytes'] as const;
export type DocumentLimitName = (typeof DOCUMENT_LIMIT_NAMES)[number];
export type DocumentLimits = { readonly [Name in DocumentLimitName]: number };

export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = {
  fileBytes: 50 * 1024 * 1024,
  // About 2,000 pages of prose: a long book, not a corpus in one file.
  textChars: 5_000_000,
  // Passages are packed to about 700 characters, so 5,000,000 characters make about 7,000; many
  // tiny sections (a heading per line) make far more rows than the text suggests.
  passages: 10_000,
  pdfPages: 2_000,
  pdfExpandedBytes: 256 * 1024 * 1024,
};

const UNITS: { readonly [Name in DocumentLimitName]: string } = {
  fileBytes: 'bytes of file',
  textChars: 'characters of text',
  passages: 'passages',
  pdfPages: 'PDF pages',
  pdfExpandedBytes: 'bytes of decompressed PDF streams',
};

/** A document passed one of its limits; it is refused whole, so no part of it is stored. */
export class DocumentLimitError extends Error {
  override readonly name = 'DocumentLimitError';
  readonly code = 'document_limit_exceeded';

  constructor(
    readonly fileName: string,
    readonly limit: DocumentLimitName,
    readonly maximum: number,
    /** How far the work got before it stopped: just past `maximum`, never the document's full size. */
    readonly reached: number,
  ) {
    super(`Refused "${fileName}": more than ${maximum} ${UNITS[limit]} (the ${limit} limit; stopped at ${reached})`);
  }
}
