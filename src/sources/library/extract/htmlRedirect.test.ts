import { describe, expect, it } from 'vitest';
import { MAX_STUB_TEXT_CHARS, refreshTarget, stubTarget } from './htmlRedirect.js';

describe('refreshTarget', () => {
  it('reads the URL of a refresh however the content is spelled', () => {
    for (const [content, url] of [
      ['0; url=Projects.html#Bugs', 'Projects.html#Bugs'],
      ['5;URL=next.html', 'next.html'],
      ["0; url='quoted page.html'", 'quoted page.html'],
      ['0, url="a.html"', 'a.html'],
      ['1.5; other.html', 'other.html'],
    ] as const) {
      expect(refreshTarget({ 'http-equiv': 'Refresh', content })).toBe(url);
    }
  });

  it('finds no target in a refresh that only reloads the page, or in another meta', () => {
    for (const content of ['0', '10', '30;', '0; url=', '']) {
      expect(refreshTarget({ 'http-equiv': 'refresh', content })).toBeNull();
    }
    expect(refreshTarget({ 'http-equiv': 'Content-Type', content: '0; url=x.html' })).toBeNull();
    expect(refreshTarget({ name: 'refresh', content: '0; url=x.html' })).toBeNull();
    expect(refreshTarget({ 'http-equiv': 'refresh' })).toBeNull();
  });
});

describe('stubTarget', () => {
  it('is a stub only when the page redirects and says next to nothing', () => {
    expect(stubTarget('Projects.html#Bugs', 'The node you are looking for is at Bugs.')).toBe('Projects.html#Bugs');
    expect(stubTarget('x.html', 'a'.repeat(MAX_STUB_TEXT_CHARS))).toBe('x.html');
    expect(stubTarget('x.html', 'a'.repeat(MAX_STUB_TEXT_CHARS + 1))).toBeNull();
    expect(stubTarget(null, '')).toBeNull();
  });
});
