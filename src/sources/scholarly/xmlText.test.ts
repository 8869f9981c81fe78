import { describe, expect, it } from 'vitest';
import { readSourceFixture } from '../../../test/fixtures/sources/replayServer.js';
import { parseArxivFeed } from './arxivAtom.js';
import { decodeXmlEntities, xmlToPlainText } from './xmlText.js';
import { growthRatio, linearBound } from '../../../test/support/growth.js';

describe('xmlToPlainText', () => {
  it('strips tags, keeps CDATA verbatim and decodes the XML entities only', () => {
    expect(xmlToPlainText('<jats:p>a &lt;b&gt; &amp; <jats:italic>c</jats:italic></jats:p>')).toBe('a <b> & c');
    expect(xmlToPlainText('x <![CDATA[<not a tag> &amp;]]> y')).toBe('x <not a tag> &amp; y');
    expect(decodeXmlEntities('&#8211; &#x2014; &nbsp;&bogus; &#0; &#xD800;')).toBe('– — \u00a0&bogus; \ufffd \ufffd');
  });

  it('stays linear on hostile markup', async () => {
    const sizes = { small: 12_500, big: 100_000 };
    const hostileText = (n: number) => xmlToPlainText('<'.repeat(5 * n) + '<![CDATA['.repeat(n / 2));
    expect(await growthRatio(hostileText, sizes)).toBeLessThan(linearBound(sizes));
    const hostileFeed = (n: number) => parseArxivFeed(`<feed>${'<entry><id>'.repeat(n)}</feed>`);
    expect(await growthRatio(hostileFeed, sizes)).toBeLessThan(linearBound(sizes));
  });
});

describe('parseArxivFeed', () => {
  it('reads id, title, summary, date and DOI of each entry', () => {
    const [entry] = parseArxivFeed(readSourceFixture('arxiv/id-list-2303.08774.atom.xml')) ?? [];
    expect(entry).toEqual({
      id: '2303.08774v6',
      title: 'GPT-4 Technical Report',
      summary: expect.stringMatching(
        /^We report the development of GPT-4, a large-scale, multimodal model which can accept/,
      ),
      published: '2023-03-15T17:15:04Z',
      doi: '10.48550/arXiv.2303.08774',
    });
  });

  it('skips the error entries arXiv uses to report a bad query', () => {
    expect(parseArxivFeed(readSourceFixture('arxiv/error-bad-id.atom.xml'))).toEqual([]);
  });

  it('tells a body that is not a feed from an empty feed', () => {
    expect(parseArxivFeed('<html><body>maintenance</body></html>')).toBeUndefined();
    expect(parseArxivFeed('<feed xmlns="http://www.w3.org/2005/Atom"></feed>')).toEqual([]);
  });
});
