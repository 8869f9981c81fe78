import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { atxHeading, frontMatterTitle } from './markdown.js';
import { findCodeSpans, stripInlineComments } from './markdownInline.js';

/*
 * The scanners replace regexes that backtracked quadratically. Those regexes stay here as the
 * reference: on short random strings over the syntax's own characters (where the quadratic cost
 * does not matter) the scanner must give exactly what the regex gave.
 */
const stringOf = (pieces: readonly string[], maxLength = 40): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(...pieces), { maxLength }).map((parts) => parts.join(''));

const RUNS = { numRuns: 2000 };

describe('findCodeSpans', () => {
  const REFERENCE = /(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g;
  const bracketCode = (line: string): string => {
    let out = '';
    let cursor = 0;
    for (const span of findCodeSpans(line)) {
      out += `${line.slice(cursor, span.start)}<${span.code}>`;
      cursor = span.end;
    }
    return out + line.slice(cursor);
  };

  it('finds the spans the former regex found (property)', () => {
    fc.assert(
      fc.property(stringOf(['`', '``', '```', 'a', ' ']), (line) => {
        expect(bracketCode(line)).toBe(line.replace(REFERENCE, (_match, _ticks, code: string) => `<${code}>`));
      }),
      RUNS,
    );
  });

  it('pairs runs of equal length, leaving the unmatched head of a longer run literal', () => {
    expect(bracketCode('``a`')).toBe('`<a>');
    expect(bracketCode('`a`` b ``c`')).toBe('<a`` b ``c>');
    expect(bracketCode('``a`b``')).toBe('<a`b>');
    expect(bracketCode('no code')).toBe('no code');
  });
});

describe('stripInlineComments', () => {
  it('removes what /<!--[\\s\\S]*?-->/g removed (property)', () => {
    fc.assert(
      fc.property(stringOf(['<!--', '-->', '<', '!', '-', '>', 'a']), (text) => {
        expect(stripInlineComments(text)).toBe(text.replace(/<!--[\s\S]*?-->/g, ''));
      }),
      RUNS,
    );
  });
});

describe('atxHeading', () => {
  const REFERENCE = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;

  it('reads level and text exactly as the former regex did (property)', () => {
    fc.assert(
      fc.property(stringOf(['', ' ', '  ']), stringOf(['#', ' ', '\t', 'a', 'b'], 20), (indent, rest) => {
        const line = indent + rest;
        const match = REFERENCE.exec(line);
        expect(atxHeading(line)).toEqual(match === null ? null : { level: match[1]?.length, text: match[2] ?? '' });
      }),
      RUNS,
    );
  });

  it('drops a closing run only when blanks separate it from the text', () => {
    expect(atxHeading('## Setup ##  ')).toEqual({ level: 2, text: 'Setup' });
    expect(atxHeading('# C#')).toEqual({ level: 1, text: 'C#' });
    expect(atxHeading('####### seven')).toBeNull();
    expect(atxHeading('#hashtag')).toBeNull();
  });
});

describe('frontMatterTitle', () => {
  const REFERENCE = /^title\s*[:=]\s*(.*?)\s*$/;

  it('reads the value the former regex read (property)', () => {
    fc.assert(
      fc.property(stringOf(['title', ':', '=', ' ', '\t', 'a', '"', "'"], 12), (line) => {
        const value = REFERENCE.exec(line)?.[1];
        expect(frontMatterTitle(line)).toBe(value === undefined ? null : value.replace(/^(["'])(.*)\1$/, '$2'));
      }),
      RUNS,
    );
  });
});
