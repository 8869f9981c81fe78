import { describe, expect, it } from 'vitest';
import { renderInline } from './library/extract/markdownInline.js';
import { decodeXmlEntities } from './scholarly/xmlText.js';
import { decodeCharacterReferences } from './characterReferences.js';

describe('decodeCharacterReferences', () => {
  it('decodes the XML five, &nbsp; as U+00A0, and decimal and hexadecimal references', () => {
    expect(decodeCharacterReferences('&amp;&lt;&gt;&quot;&apos;&nbsp;&#8211;&#x2014;&#X41;')).toBe(
      '&<>"\'\u00a0–—A',
    );
  });

  it('turns a reference to no scalar value into U+FFFD and leaves unknown names as written', () => {
    expect(decodeCharacterReferences('&#0; &#xD800; &#1114112; &copy; &bogus; & amp;')).toBe(
      '\ufffd \ufffd \ufffd &copy; &bogus; & amp;',
    );
  });

  it('is the one decoder: Markdown inline text and scholarly XML read a reference the same way', () => {
    const text = 'a&nbsp;b &#0; &amp;';
    expect(renderInline(text)).toBe(decodeXmlEntities(text));
    expect(renderInline(text)).toBe('a\u00a0b \ufffd &');
  });
});
