import { ExtractionError, UnsupportedDocumentError, type MediaType } from './types.js';

const MEDIA_TYPE_BY_EXTENSION: Readonly<Record<string, MediaType>> = {
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.txt': 'text/plain',
  '.text': 'text/plain',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.pdf': 'application/pdf',
};

/** Lower-cased extension of the last path segment, with its dot; '' when there is none. */
const extensionOf = (fileName: string): string => {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  const dot = base.lastIndexOf('.');
  // A leading dot marks a hidden file (".env"), not an extension.
  return dot <= 0 ? '' : base.slice(dot).toLowerCase();
};

/** Whether the library can index a file of this name (its extension is one it extracts). */
export const isSupportedDocument = (fileName: string): boolean =>
  Object.hasOwn(MEDIA_TYPE_BY_EXTENSION, extensionOf(fileName));

/** The format is chosen by extension only: content sniffing would let a renamed file change meaning silently. */
export const detectMediaType = (fileName: string): MediaType => {
  const extension = extensionOf(fileName);
  const mediaType = Object.hasOwn(MEDIA_TYPE_BY_EXTENSION, extension) ? MEDIA_TYPE_BY_EXTENSION[extension] : undefined;
  if (mediaType === undefined)
    throw new UnsupportedDocumentError(fileName, extension, Object.keys(MEDIA_TYPE_BY_EXTENSION));
  return mediaType;
};

const BINARY_SNIFF_BYTES = 8 * 1024;

/**
 * Text never contains NUL, so one in the first 8 KiB (the heuristic git and grep use) means a
 * binary file with a textual name; indexing it would fill the library with mojibake.
 */
export const assertTextContent = (fileName: string, bytes: Uint8Array): void => {
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
    throw new ExtractionError(fileName, 'the file looks binary (it has NUL bytes), not text');
  }
};
