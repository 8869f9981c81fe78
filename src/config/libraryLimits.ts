import {
  DEFAULT_DOCUMENT_LIMITS,
  DOCUMENT_LIMIT_NAMES,
  type DocumentLimitName,
  type DocumentLimits,
} from '../sources/library/extract/limits.js';
import { integer, type Env } from './env.js';

/**
 * The environment variable and the largest accepted value of each per-document limit of
 * `helix library add` (docs/configuration.md). The ceilings keep a typo from disabling a limit
 * in effect: past them a file would exhaust memory anyway (a JS string holds at most 2^29 characters).
 */
export const LIBRARY_LIMIT_SETTINGS: {
  readonly [Name in DocumentLimitName]: { readonly variable: string; readonly max: number };
} = {
  fileBytes: { variable: 'HELIX_LIBRARY_MAX_FILE_BYTES', max: 1024 * 1024 * 1024 },
  textChars: { variable: 'HELIX_LIBRARY_MAX_TEXT_CHARS', max: 100_000_000 },
  passages: { variable: 'HELIX_LIBRARY_MAX_PASSAGES', max: 1_000_000 },
  pdfPages: { variable: 'HELIX_LIBRARY_MAX_PDF_PAGES', max: 100_000 },
  pdfExpandedBytes: { variable: 'HELIX_LIBRARY_MAX_PDF_EXPANDED_BYTES', max: 4 * 1024 * 1024 * 1024 },
};

/** One limit given under another name (a command-line option), checked against the same range. */
export const parseLibraryLimit = (limit: DocumentLimitName, name: string, raw: string): number =>
  integer({ [name]: raw }, name, DEFAULT_DOCUMENT_LIMITS[limit], 1, LIBRARY_LIMIT_SETTINGS[limit].max);

export const libraryLimits = (env: Env): DocumentLimits => {
  const limits: Record<DocumentLimitName, number> = { ...DEFAULT_DOCUMENT_LIMITS };
  for (const limit of DOCUMENT_LIMIT_NAMES) {
    const { variable, max } = LIBRARY_LIMIT_SETTINGS[limit];
    limits[limit] = integer(env, variable, DEFAULT_DOCUMENT_LIMITS[limit], 1, max);
  }
  return limits;
};
