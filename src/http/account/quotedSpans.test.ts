import { describe, expect, it } from 'vitest';
import { highlightQuotes, quotedSpans, quotesOf } from './quotedSpans.js';

describe('quoted spans in a passage', () => {
  it('takes the sentences an answer quotes, without its citation markers or short fragments', () => {
    expect(quotesOf(['The default port is 9418. [1] Yes. [2, 3]\nSources: none'])).toEqual([
      'The default port is 9418.',
      'Sources: none',
    ]);
  });

  it('finds every occurrence and merges overlapping spans', () => {
    const passage = 'Alpha beta gamma. Alpha beta gamma. Delta epsilon zeta.';
    expect(quotedSpans(passage, ['Alpha beta gamma.', 'gamma. Delta epsilon'])).toEqual([
      { start: 0, end: 17 },
      { start: 18, end: 49 },
    ]);
    expect(quotedSpans(passage, ['not in the passage'])).toEqual([]);
  });

  it('marks the spans and escapes everything, so markup in a passage or a quote stays inert text', () => {
    const passage = 'Before <script>alert(1)</script> the port is 9418 & fixed.';
    expect(highlightQuotes(passage, ['the port is 9418 & fixed.'])).toBe(
      'Before &lt;script&gt;alert(1)&lt;/script&gt; <mark>the port is 9418 &amp; fixed.</mark>',
    );
    expect(highlightQuotes('<b>x</b> and <b>x</b> again', ['<b>x</b> and <b>x</b>'])).toBe(
      '<mark>&lt;b&gt;x&lt;/b&gt; and &lt;b&gt;x&lt;/b&gt;</mark> again',
    );
  });
});
