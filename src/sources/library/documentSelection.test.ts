import { describe, expect, it } from 'vitest';
import {
  checkExcludePattern,
  DEFAULT_DOCUMENT_SELECTION,
  ExcludePatternError,
  excludeTestFor,
} from './documentSelection.js';

describe('which files under an added directory the library skips', () => {
  it('by default: hidden entries, dependency and build output, and Sphinx source copies and assets', () => {
    const skipped = excludeTestFor(DEFAULT_DOCUMENT_SELECTION);
    for (const [path, isDirectory] of [
      ['_sources', true],
      ['api/_sources', true],
      ['_static', true],
      ['.buildinfo', false],
      ['.git', true],
      ['node_modules', true],
      ['dist', true],
      ['coverage', true],
    ] as const)
      expect(skipped(path, isDirectory), path).toBe(true);
    for (const [path, isDirectory] of [
      ['index.html', false],
      ['usage', true],
      ['_sources.html', false],
      ['notes/_Static', true],
      ['sources', true],
    ] as const)
      expect(skipped(path, isDirectory), path).toBe(false);
  });

  it('adds --exclude patterns in .gitignore syntax, and a later !pattern takes a default back', () => {
    const skipped = excludeTestFor({ exclude: ['*.rst.txt', 'api/legacy/', '!_static/'], defaultExcludes: true });
    expect(skipped('notes/page.rst.txt', false)).toBe(true);
    expect(skipped('api/legacy', true)).toBe(true);
    expect(skipped('legacy', true)).toBe(false);
    expect(skipped('_static', true)).toBe(false);
    expect(skipped('_sources', true)).toBe(true);
  });

  it('without the defaults, skips only what --exclude names', () => {
    const skipped = excludeTestFor({ exclude: ['changelog.html'], defaultExcludes: false });
    expect(skipped('_sources', true)).toBe(false);
    expect(skipped('.hidden', true)).toBe(false);
    expect(skipped('changelog.html', false)).toBe(true);
  });

  it.each([
    ['', 'is empty'],
    ['   ', 'is empty'],
    ['!', 'is empty'],
    ['# drafts', 'starts with # (a comment in .gitignore syntax)'],
    ['docs\\_build', 'has a backslash: separate folders with /'],
    ['../secrets', 'has a .. segment'],
    ['site/../x', 'has a .. segment'],
    ['[abc', 'has a [ without its ]'],
    ['page[0-9.html', 'has a [ without its ]'],
  ])('refuses %j with a reason that names the pattern', (pattern, reason) => {
    let thrown: unknown;
    try {
      checkExcludePattern(pattern);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ExcludePatternError);
    expect((thrown as Error).message.startsWith(`--exclude ${JSON.stringify(pattern)} ${reason}`)).toBe(true);
    expect(() => excludeTestFor({ exclude: [pattern], defaultExcludes: true })).toThrow(ExcludePatternError);
  });

  it('accepts escapes and character classes as .gitignore writes them', () => {
    expect(checkExcludePattern('\\#notes.md')).toBe('\\#notes.md');
    expect(checkExcludePattern(' page[0-9].html ')).toBe('page[0-9].html');
    expect(excludeTestFor({ exclude: ['page[0-9].html'], defaultExcludes: true })('page7.html', false)).toBe(true);
  });
});
