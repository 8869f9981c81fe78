/** The document formats the research library can index, in the order they are documented. */
export const MEDIA_TYPES = ['text/markdown', 'text/plain', 'text/html', 'application/pdf'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/**
 * A character range `[start, end)` of `ExtractedDocument.text`. The sections of one document
 * partition its text: the first starts at 0, each ends where the next starts, the last ends at
 * `text.length`. A section owns the blank line that separates it from the next one.
 */
export interface Section {
  /** Heading text for Markdown/HTML sections; null for PDF pages, plain text and a preamble. */
  readonly heading: string | null;
  readonly start: number;
  readonly end: number;
  /** 1-based page number for PDFs; null for every other format. */
  readonly page: number | null;
}

export interface ExtractedDocument {
  readonly title: string;
  readonly mediaType: MediaType;
  /** Readable text: newlines are `\n`, runs of spaces/tabs are one space, paragraphs are split by one blank line, no edge whitespace. */
  readonly text: string;
  readonly sections: readonly Section[];
}

/** The file's extension names no format the library can read; the caller should skip the file. */
export class UnsupportedDocumentError extends Error {
  override readonly name = 'UnsupportedDocumentError';
  readonly code = 'unsupported_document';

  constructor(
    readonly fileName: string,
    /** Lower-cased, with its dot; '' when the name has none. */
    readonly extension: string,
    supportedExtensions: readonly string[],
  ) {
    const supported = `supported: ${supportedExtensions.join(', ')}`;
    super(
      extension === ''
        ? `Cannot index "${fileName}": it has no file extension (${supported})`
        : `Cannot index "${fileName}": "${extension}" files are not supported (${supported})`,
    );
  }
}

/** The file claims a supported format but its bytes cannot be read as one (corrupt, encrypted, binary). */
export class ExtractionError extends Error {
  override readonly name = 'ExtractionError';
  readonly code = 'extraction_failed';

  constructor(
    readonly fileName: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`Cannot extract text from "${fileName}": ${reason}`, options);
  }
}

/**
 * The file is a supported format but holds no content of its own (a redirect stub a generator left
 * where a page used to be); the caller should skip it, neither indexing it nor counting it failed.
 */
export class SkippedDocumentError extends Error {
  override readonly name = 'SkippedDocumentError';
  readonly code = 'document_skipped';

  constructor(
    readonly fileName: string,
    /** Why, for the progress line: "a redirect to Projects.html#Bugs". */
    readonly reason: string,
  ) {
    super(`Skipped "${fileName}": ${reason}`);
  }
}
