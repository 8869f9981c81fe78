import { assembleDocument, type DraftDocument } from './assemble.js';
import { assertTextContent, detectMediaType } from './detect.js';
import { extractHtml } from './html.js';
import { extractMarkdown } from './markdown.js';
import { DEFAULT_DOCUMENT_LIMITS } from './limits.js';
import { extractPdf, type PdfLimits } from './pdf.js';
import { extractPlainText } from './text.js';
import type { ExtractedDocument } from './types.js';

export { ExtractionError, MEDIA_TYPES, SkippedDocumentError, UnsupportedDocumentError } from './types.js';
export { DEFAULT_DOCUMENT_LIMITS, DocumentLimitError } from './limits.js';
export type { DocumentLimitName, DocumentLimits } from './limits.js';
export type { ExtractedDocument, MediaType, Section } from './types.js';
export { detectMediaType } from './detect.js';

// TextDecoder drops a leading BOM by default; malformed bytes become U+FFFD rather than failing
// the whole file, since a stray Latin-1 byte should not hide an otherwise readable document.
const utf8 = new TextDecoder('utf-8');

const decodeText = (fileName: string, bytes: Uint8Array): string => {
  assertTextContent(fileName, bytes);
  return utf8.decode(bytes);
};

/** What extraction itself bounds; the file size and passage count are bounded around it (ingest.ts). */
export type ExtractionLimits = PdfLimits;

/**
 * Reads a document into normalized text with titled, ranged sections. Throws
 * UnsupportedDocumentError for an unknown extension, ExtractionError for unreadable bytes and
 * DocumentLimitError for a document past one of `limits`.
 */
export const extractDocument = async (
  fileName: string,
  bytes: Uint8Array,
  limits: ExtractionLimits = DEFAULT_DOCUMENT_LIMITS,
): Promise<ExtractedDocument> => {
  const mediaType = detectMediaType(fileName);
  let draft: DraftDocument;
  switch (mediaType) {
    case 'text/markdown':
      draft = extractMarkdown(decodeText(fileName, bytes));
      break;
    case 'text/plain':
      draft = extractPlainText(decodeText(fileName, bytes));
      break;
    case 'text/html':
      draft = extractHtml(fileName, decodeText(fileName, bytes));
      break;
    case 'application/pdf':
      draft = await extractPdf(fileName, bytes, limits);
      break;
  }
  return assembleDocument(fileName, mediaType, draft, limits.textChars);
};
