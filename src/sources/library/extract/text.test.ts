import { describe, expect, it } from 'vitest';
import { extractDocument } from './index.js';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('plain text extraction', () => {
  it('takes the first non-blank line as the title and keeps the text as one section', async () => {
    const doc = await extractDocument(
      'notes/meeting.txt',
      encode('\n\n  Quarterly   review \r\nWe met.\r\n\r\nWe decided.\r\n'),
    );
    expect(doc.title).toBe('Quarterly review');
    expect(doc.mediaType).toBe('text/plain');
    expect(doc.text).toBe('Quarterly review\nWe met.\n\nWe decided.');
    expect(doc.sections).toEqual([{ heading: null, page: null, start: 0, end: doc.text.length }]);
  });

  it('uses the file name when the first line is prose rather than a title', async () => {
    const longLine = 'word '.repeat(40).trim();
    const doc = await extractDocument('/data/field-notes.txt', encode(`${longLine}\nsecond line`));
    expect(doc.title).toBe('field-notes');
  });

  it('uses the file name for an empty file, which has no text and no sections', async () => {
    const doc = await extractDocument('empty.text', encode(' \n\t\n'));
    expect(doc).toEqual({ title: 'empty', mediaType: 'text/plain', text: '', sections: [] });
  });
});
