import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { DEFAULT_DOCUMENT_LIMITS } from '../sources/library/extract/limits.js';
import { libraryLimits, parseLibraryLimit } from './libraryLimits.js';

describe('libraryLimits', () => {
  it('uses the defaults when nothing is set, and reads each HELIX_LIBRARY_MAX_* variable', () => {
    expect(libraryLimits({})).toEqual(DEFAULT_DOCUMENT_LIMITS);
    expect(
      libraryLimits({
        HELIX_LIBRARY_MAX_FILE_BYTES: '1000',
        HELIX_LIBRARY_MAX_TEXT_CHARS: ' 2000 ',
        HELIX_LIBRARY_MAX_PASSAGES: '30',
        HELIX_LIBRARY_MAX_PDF_PAGES: '4',
        HELIX_LIBRARY_MAX_PDF_EXPANDED_BYTES: '5000',
      }),
    ).toEqual({ fileBytes: 1000, textChars: 2000, passages: 30, pdfPages: 4, pdfExpandedBytes: 5000 });
  });

  it.each([
    ['HELIX_LIBRARY_MAX_TEXT_CHARS', '5MB', 'HELIX_LIBRARY_MAX_TEXT_CHARS must be a whole number'],
    ['HELIX_LIBRARY_MAX_PASSAGES', '0', 'HELIX_LIBRARY_MAX_PASSAGES must be between 1 and 1000000'],
    ['HELIX_LIBRARY_MAX_PDF_PAGES', '-1', 'HELIX_LIBRARY_MAX_PDF_PAGES must be a whole number'],
    [
      'HELIX_LIBRARY_MAX_FILE_BYTES',
      String(2 * 1024 ** 3),
      'HELIX_LIBRARY_MAX_FILE_BYTES must be between 1 and 1073741824',
    ],
  ])('refuses %s=%s, naming the variable', (variable, value, message) => {
    expect(() => libraryLimits({ [variable]: value })).toThrow(ConfigError);
    expect(() => libraryLimits({ [variable]: value })).toThrow(message);
  });

  it('checks a command-line value against the same range, naming the option', () => {
    expect(parseLibraryLimit('passages', '--max-passages', '25')).toBe(25);
    expect(() => parseLibraryLimit('passages', '--max-passages', '0')).toThrow(
      '--max-passages must be between 1 and 1000000',
    );
  });

  it('is part of the configuration the server loads, so a bad value stops start-up', () => {
    expect(loadConfig({ HELIX_LIBRARY_MAX_PDF_PAGES: '10' }).libraryLimits.pdfPages).toBe(10);
    expect(() => loadConfig({ HELIX_LIBRARY_MAX_PDF_PAGES: 'ten' })).toThrow(ConfigError);
  });
});
