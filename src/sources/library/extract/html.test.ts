import { describe, expect, it } from 'vitest';
import { extractDocument } from './index.js';
import type { ExtractedDocument } from './types.js';

const extract = (source: string, fileName = 'page.html'): Promise<ExtractedDocument> =>
  extractDocument(fileName, new TextEncoder().encode(source));

const PAGE = `<!doctype html>
<html>
<head><title>Helix &amp; the  Library</title><style>body { color: red }</style><script>track("visit")</script></head>
<body>
  <nav><a href="/">Home</a> <a href="/docs">Docs</a></nav>
  <p>Lead paragraph.</p>
  <h1>Getting <em>started</em></h1>
  <p>Install with <a href="https://example.com/install">the installer</a>.</p>
  <img src="diagram.png" alt="architecture diagram">
  <h2>Configuration</h2>
  <p>Set <code>HELIX_PORT</code>.</p>
  <table><tr><th>Name</th><th>Default</th></tr><tr><td>port</td><td>1522</td></tr></table>
  <script>console.log("late")</script>
</body>
</html>`;

describe('HTML extraction', () => {
  it('takes the title from <title>', async () => {
    expect((await extract(PAGE)).title).toBe('Helix & the Library');
  });

  it('falls back to the first h1, then to the file name', async () => {
    expect((await extract('<h2>Minor</h2><h1>Main <b>Heading</b></h1><p>x</p>')).title).toBe('Main Heading');
    expect((await extract('<p>No headings at all.</p>', 'site/about-us.htm')).title).toBe('about-us');
  });

  it('keeps readable text and drops scripts, styles, navigation, images and link targets', async () => {
    const doc = await extract(PAGE);
    expect(doc.text).toContain('Install with the installer.');
    expect(doc.text).toContain('Set HELIX_PORT.');
    expect(doc.text).toMatch(/Name Default\nport 1522/);
    for (const absent of ['track', 'color', 'console', 'Home', 'Docs', 'https://', 'diagram', 'Helix & the Library']) {
      expect(doc.text).not.toContain(absent);
    }
  });

  it('makes h1-h6 section boundaries with their text, not upper-cased', async () => {
    const doc = await extract(PAGE);
    expect(doc.sections.map((section) => section.heading)).toEqual([null, 'Getting started', 'Configuration']);
    const [preamble, started, configuration] = doc.sections.map((section) => doc.text.slice(section.start, section.end).trim());
    expect(preamble).toBe('Lead paragraph.');
    expect(started).toBe('Getting started\n\nInstall with the installer.');
    expect(configuration).toMatch(/^Configuration\n\nSet HELIX_PORT\./);
  });

  it('ignores a <title> inside the body, such as an inline SVG label', async () => {
    const doc = await extract('<html><body><svg><title>icon</title></svg><h1>Real Title</h1></body></html>');
    expect(doc.title).toBe('Real Title');
  });
});
