import { describe, expect, it } from 'vitest';
import { detectMediaType, isSupportedDocument } from './detect.js';
import { UnsupportedDocumentError } from './types.js';

describe('detectMediaType', () => {
  it.each([
    ['notes.md', 'text/markdown'],
    ['notes.markdown', 'text/markdown'],
    ['README.MD', 'text/markdown'],
    ['notes.txt', 'text/plain'],
    ['notes.text', 'text/plain'],
    ['page.html', 'text/html'],
    ['page.HTM', 'text/html'],
    ['paper.pdf', 'application/pdf'],
    ['/srv/library/v1.2/paper.final.pdf', 'application/pdf'],
    ['C:\\library\\paper.pdf', 'application/pdf'],
  ])('reads %s as %s', (fileName, mediaType) => {
    expect(detectMediaType(fileName)).toBe(mediaType);
  });

  it('refuses an unsupported extension, naming it and the supported ones', () => {
    const attempt = () => detectMediaType('slides/deck.docx');
    expect(attempt).toThrow(UnsupportedDocumentError);
    expect(attempt).toThrow(/"\.docx" files are not supported \(supported: \.md, .*\.pdf\)/);
  });

  it.each(['page.mdx', 'data.json', 'archive.pdf.zip'])('refuses %s', (fileName) => {
    expect(() => detectMediaType(fileName)).toThrow(UnsupportedDocumentError);
  });

  it('isSupportedDocument says in advance whether a name is read or refused', () => {
    for (const name of ['notes.md', 'README.MD', 'paper.pdf', 'page.htm']) expect(isSupportedDocument(name)).toBe(true);
    for (const name of ['openapi.json', 'page.mdx', '.env', 'Makefile']) expect(isSupportedDocument(name)).toBe(false);
  });

  it('refuses a name without an extension, and does not mistake a hidden file or folder for one', () => {
    for (const fileName of ['Makefile', '.md', 'docs.md/LICENSE']) {
      expect(() => detectMediaType(fileName)).toThrow(/has no file extension/);
    }
  });

  it('gives the extension a stable error code for callers to branch on', () => {
    try {
      detectMediaType('a.rtf');
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'unsupported_document', extension: '.rtf', fileName: 'a.rtf' });
    }
  });
});
