import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HelixError } from '../../domain/errors.js';
import { parseRequestedPath } from './requestedPath.js';

describe('parseRequestedPath', () => {
  it('either refuses a path or returns one that cannot leave the root', () => {
    const piece = fc.constantFrom(
      '..',
      '.',
      '',
      'src',
      'a.ts',
      '\\',
      '\0',
      '/',
      'C:',
      '0:',
      '1:',
      '.git',
      'node_modules',
      '..a',
    );
    const raw = fc.oneof(
      fc.string(),
      fc.array(piece, { maxLength: 8 }).map((parts) => parts.join('/')),
    );
    fc.assert(
      fc.property(raw, fc.integer({ min: 1, max: 3 }), (value, rootCount) => {
        let parsed: ReturnType<typeof parseRequestedPath>;
        try {
          parsed = parseRequestedPath(value, rootCount);
        } catch (error) {
          expect(error).toBeInstanceOf(HelixError);
          if (value.length >= 8) expect((error as HelixError).details.issues?.[0]?.message).not.toContain(value);
          return;
        }
        expect(parsed.rootIndex).toBeLessThan(rootCount);
        expect(parsed.segments.length).toBeGreaterThan(0);
        for (const segment of parsed.segments) {
          expect(['', '.', '..', '.git', 'node_modules']).not.toContain(segment);
          expect(segment).not.toMatch(/[\\/\0]/);
        }
        expect(parsed.relativePath).toBe(parsed.segments.join('/'));
      }),
    );
  });

  it('reads the root prefix only when several roots are configured', () => {
    expect(parseRequestedPath('1:docs/a.md', 2)).toMatchObject({ rootIndex: 1, relativePath: 'docs/a.md' });
    expect(parseRequestedPath('1:docs/a.md', 1)).toMatchObject({ rootIndex: 0, relativePath: '1:docs/a.md' });
    expect(() => parseRequestedPath('5:docs/a.md', 2)).toThrow(HelixError);
  });
});
