import fc from 'fast-check';
import { convert } from 'html-to-text';
import { describe, expect, it } from 'vitest';
import { documentTitle, MAX_HTML_DEPTH } from './html.js';
import { extractDocument } from './index.js';
import { ExtractionError, type ExtractedDocument, SkippedDocumentError } from './types.js';

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
    expect(doc.text).toContain('Name: port; Default: 1522');
    for (const absent of ['track', 'color', 'console', 'Home', 'Docs', 'https://', 'diagram', 'Helix & the Library']) {
      expect(doc.text).not.toContain(absent);
    }
  });

  it('makes h1-h6 section boundaries headed by their path, not upper-cased', async () => {
    const doc = await extract(PAGE);
    expect(doc.sections.map((section) => section.heading)).toEqual([
      null,
      'Getting started',
      'Getting started › Configuration',
    ]);
    const [preamble, started, configuration] = doc.sections.map((section) =>
      doc.text.slice(section.start, section.end).trim(),
    );
    expect(preamble).toBe('Lead paragraph.');
    expect(started).toBe('Getting started\n\nInstall with the installer.');
    expect(configuration).toMatch(/^Configuration\n\nSet HELIX_PORT\./);
  });

  it('ignores a <title> inside the body, such as an inline SVG label', async () => {
    const doc = await extract('<html><body><svg><title>icon</title></svg><h1>Real Title</h1></body></html>');
    expect(doc.title).toBe('Real Title');
  });
});

describe('HTML extraction of adversarial pages', () => {
  it('reads the title the former regex read, without rescanning the head (property)', () => {
    const REFERENCE = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i;
    const head = fc.array(fc.constantFrom('<title', '<TITLE', '</title', '>', ' ', '<body', 'a', 'b', '<', '/'), {
      maxLength: 30,
    });
    fc.assert(
      fc.property(head, (pieces) => {
        const source = pieces.join('');
        const inner = REFERENCE.exec(source.split(/<body\b/i)[0] ?? '')?.[1];
        const expected = inner === undefined ? '' : convert(inner, { wordwrap: false }).replace(/\s+/g, ' ').trim();
        expect(documentTitle(source)).toBe(expected === '' ? null : expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('a head of unclosed <title openers has no title', async () => {
    for (const opener of ['<title>', '<title ']) {
      expect((await extract(`${opener.repeat(60_000)}<body><p>x</p></body>`, 'site/unclosed.html')).title).toBe(
        'unclosed',
      );
    }
  });

  it('refuses elements nested past the limit, and reads a page just inside it', async () => {
    const tooDeep = extract(`${'<div>'.repeat(160_000)}x`, 'deep.html');
    await expect(tooDeep).rejects.toThrow(ExtractionError);
    await expect(tooDeep).rejects.toThrow(
      `Cannot extract text from "deep.html": elements are nested more than ${MAX_HTML_DEPTH} deep`,
    );
    const deepest = await extract(`<html><body>${'<div>'.repeat(MAX_HTML_DEPTH - 2)}inside</body></html>`);
    expect(deepest.text).toBe('inside');
  });

  it('reads tables, lists and quotes as plain lines whatever their spans and nesting', async () => {
    const wide = await extract(
      `<table><tr>${'<td colspan="1000" rowspan="1000">cell</td>'.repeat(2_000)}</tr></table>`,
    );
    expect(wide.text).toBe(Array.from({ length: 2_000 }, () => 'cell').join('; '));
    const nested = await extract(`${'<ul><li>'.repeat(200)}${'<p>line</p>'.repeat(10_000)}`);
    // The outer items hold nothing before their nested list, so only the innermost marker shows.
    expect(nested.text).toBe(`- ${Array.from({ length: 10_000 }, () => 'line').join('\n')}`);
    const quoted = await extract(`${'<blockquote>'.repeat(400)}<p>said</p>`);
    expect(quoted.text).toBe('said');
  });

  it('reads a header-less table as one line per row, its values apart, each row a paragraph', async () => {
    const doc = await extract(
      '<table><tr><td>Note</td><td>Mind <b>this</b>.</td></tr><tr><td>a</td><td>b</td></tr></table>',
    );
    expect(doc.text).toBe('Note; Mind this.\n\na; b');
    // Issue 28: a cell's paragraph (Sphinx writes <td><p>…</p></td>) broke its row into one paragraph per cell.
    const sphinx = await extract(
      '<p>Converter types:</p><table><tbody><tr><td><p><code>string</code></p></td><td><p>(default) accepts any text</p></td></tr>' +
        '<tr><td><p><code>int</code></p></td><td><p>accepts positive integers</p></td></tr></tbody></table>',
    );
    expect(sphinx.text).toBe(
      'Converter types:\n\nstring; (default) accepts any text\n\nint; accepts positive integers',
    );
  });

  it('keeps the blocks of a header-less row whose cells hold several (a note box, a layout table)', async () => {
    const doc = await extract(
      '<table><tr><td><img src="n.png"></td><th>Note</th></tr><tr><td><p>First paragraph.</p><p>Second one.</p></td></tr></table>',
    );
    expect(doc.text).toBe('Note\n\nFirst paragraph.\n\nSecond one.');
    const layout = await extract(
      '<table><tr><td><h2>Usage</h2><p>Run it.</p></td><td><p>Side note.</p></td></tr></table>',
    );
    expect(layout.sections.map((section) => section.heading)).toEqual(['Usage']);
    expect(layout.text).toBe('Usage\n\nRun it.\n\nSide note.');
  });

  it('reads a data table as rows that name each value by its column header, each row a paragraph', async () => {
    const doc = await extract(
      '<table><caption>Ports</caption><thead><tr><th>Name</th><th>Default</th><th>Notes</th></tr></thead>' +
        '<tbody><tr><td>port</td><td>1522</td><td>First. Second.</td></tr><tr><td>host</td><td></td><td>any</td></tr></tbody></table>',
    );
    expect(doc.text).toBe('Ports\n\nName: port; Default: 1522; Notes: First. Second.\n\nName: host; Notes: any');
    const thRow = await extract(
      '<table><tr><th>Key</th><th>Meaning</th></tr><tr><td>-v</td><td>verbose</td></tr></table>',
    );
    expect(thRow.text).toBe('Key: -v; Meaning: verbose');
  });

  it('gives a spanning header to each column it spans, never more columns than the widest row has', async () => {
    const spanned = await extract(
      '<table><tr><th>Name</th><th colspan="2">Limits</th></tr><tr><td>a</td><td>1</td><td>2</td></tr></table>',
    );
    expect(spanned.text).toBe('Name: a; Limits: 1; Limits: 2');
    const wide = await extract(
      `<table><tr>${'<th colspan="100000">h</th>'.repeat(2_000)}</tr><tr>${'<td colspan="100000" rowspan="1000">v</td>'.repeat(2_000)}</tr></table>`,
    );
    const values = wide.text.split('; ');
    expect(values).toHaveLength(2_000);
    expect(values[0]).toBe('h: v');
    expect(new Set(values.map((value) => value.replace(/^h: /, '')))).toEqual(new Set(['v']));
  });

  it('drops navigation, the page banner and footer, but keeps an article header', async () => {
    const doc = await extract(
      '<body><header>Site name</header><nav>Home</nav><div role="navigation">Prev Up Next</div>' +
        '<div class="navfooter">Prev Home Next</div><article><header>Article title</header><p>Body.</p></article>' +
        '<footer>Copyright</footer></body>',
    );
    expect(doc.text).toBe('Article title\n\nBody.');
  });

  it('a noncharacter spelled as an entity cannot forge a heading', async () => {
    const doc = await extract('<p>&#xFDD0;1forged&#xFDD1; text</p><h2>Real</h2><p>body</p>');
    expect(doc.sections.map((section) => section.heading)).toEqual([null, 'Real']);
    expect(doc.title).toBe('page');
    expect(doc.text).toBe('1forged text\n\nReal\n\nbody');
  });

  it('a heading nested in a heading reads as one heading', async () => {
    const doc = await extract('<title>Page</title><h1>Outer <h2>inner</h2></h1><p>x</p>');
    expect(doc.sections.map((section) => section.heading)).toEqual(['Outer inner']);
  });
});

// Issue 28: makeinfo leaves a redirect stub for every node it moved (89 of the 112 diffutils pages).
describe('HTML redirect stubs', () => {
  const STUB =
    '<html><head><title>Bugs (Comparing and Merging Files)</title><meta http-equiv="Refresh" content="0; url=Projects.html#Bugs"></head>' +
    '<body lang="en"><p>The node you are looking for is at <a href="Projects.html#Bugs">Bugs</a>.</p></body></html>';

  it('skips a page that redirects and says next to nothing, naming where it redirects', async () => {
    const skipped = extract(STUB, 'Bugs.html');
    await expect(skipped).rejects.toThrow(SkippedDocumentError);
    await expect(skipped).rejects.toMatchObject({ reason: 'a redirect stub to Projects.html#Bugs' });
  });

  it('reads a page that redirects but has content of its own, and a page that only reloads itself', async () => {
    const content = `<p>${'A page with real content to read. '.repeat(10)}</p>`;
    const withContent = await extract(STUB.replace('</p></body>', `</p>${content}</body>`));
    expect(withContent.text).toContain('A page with real content');
    const reloading = await extract(
      '<head><meta http-equiv="refresh" content="30"></head><body><p>Live status.</p></body>',
    );
    expect(reloading.text).toBe('Live status.');
  });
});

// Issue 28: list items ran together as paragraphs with no marker, so neither passages nor quotes knew one item from the next.
describe('HTML lists', () => {
  it('writes each item on a line of its own behind its marker, the whole list one paragraph after its lead-in', async () => {
    const doc = await extract(
      '<p>These are installed:</p><ul><li><p>Werkzeug implements WSGI.</p><p>It is required.</p></li>' +
        '<li>Jinja <b>renders</b> pages.</li><li><pre>$ mkdir a\n$ cd a</pre></li></ul><p>After the list.</p>',
    );
    expect(doc.text).toBe(
      'These are installed:\n\n- Werkzeug implements WSGI.\nIt is required.\n- Jinja renders pages.\n- $ mkdir a\n$ cd a\n\nAfter the list.',
    );
  });

  it('numbers an ordered list from its start, an item with a value from there on, and a nested list apart', async () => {
    const doc = await extract(
      '<ol start="3"><li>Create it.</li><li value="7">Enter it.</li><li>Activate it.<ol><li>Check it.</li></ol></li></ol>',
    );
    expect(doc.text).toBe('3. Create it.\n7. Enter it.\n8. Activate it.\n1. Check it.');
    expect((await extract('<ol start="x"><li>a</li><li>b</li></ol><ul><li>c</li></ul>')).text).toBe(
      '1. a\n2. b\n\n- c',
    );
  });

  it('an item that opens with a nested list gives way to its first item; an empty item leaves nothing', async () => {
    const doc = await extract('<ul><li><ul><li>inner</li></ul>outer text</li><li></li><li>last</li></ul>');
    expect(doc.text).toBe('- inner\nouter text\n- last');
  });

  it('an item that opens with a term leaves no marker before the entry', async () => {
    const doc = await extract('<p>Intro.</p><ul><li><dl><dt>--color</dt><dd>Colors.</dd></dl></li></ul>');
    expect(doc.sections.map((section) => section.heading)).toEqual([null, '--color']);
    expect(doc.text).toBe('Intro.\n\n--color\nColors.');
  });

  it('a list inside a table cell stays on its row line', async () => {
    const doc = await extract(
      '<table><tr><th>Key</th><th>Values</th></tr><tr><td>mode</td><td><ul><li>fast</li><li>safe</li></ul></td></tr></table>',
    );
    expect(doc.text).toBe('Key: mode; Values: - fast - safe');
  });

  it('a noncharacter spelled as an entity cannot forge a list or an item', async () => {
    const doc = await extract('<p>&#xFDD3;&lt; &#xFDD3;-&#xFDD4;forged</p><ul><li>real</li></ul>');
    expect(doc.text).toBe('< -forged\n\n- real');
  });
});

// Issue 27 item 20: Sphinx headings kept their "¶" headerlink, in the section path and the text.
describe('HTML permalink anchors', () => {
  const SPHINX = `<html><head><title>Usage — Demo 1.0 documentation</title></head><body>
<section id="usage"><h1>Usage<a class="headerlink" href="#usage" title="Link to this heading">¶</a></h1>
<p>Run <code>demo</code> once. A pilcrow ¶ in the prose is the author's own.</p>
<section id="options"><h2>Options<a class="headerlink" href="#options" title="Link to this heading">¶</a></h2>
<dl><dt id="cmdoption-q"><code>-q</code><a class="headerlink" href="#cmdoption-q" title="Link to this definition">¶</a></dt>
<dd><p>Quiet.</p></dd></dl>
<div class="literal-block-wrapper"><div class="code-block-caption"><span class="caption-text">config.toml</span><a class="headerlink" href="#id1" title="Link to this code">¶</a></div>
<pre>verbose = false</pre></div>
</section></section></body></html>`;

  it('drops Sphinx headerlinks from headings, terms and captions, and keeps a ¶ the prose wrote', async () => {
    const doc = await extract(SPHINX);
    expect(doc.sections.map((section) => section.heading)).toEqual([
      'Usage',
      'Usage › Options',
      'Usage › Options › -q',
      'Usage › Options',
    ]);
    expect(doc.text).toContain("Usage\n\nRun demo once. A pilcrow ¶ in the prose is the author's own.");
    expect(doc.text).toContain('config.toml');
    expect(doc.text.match(/¶/g)).toHaveLength(1);
  });

  it.each([
    ['MkDocs', '<a class="headerlink" href="#setup" title="Permanent link">¶</a>'],
    ['VitePress', '<a class="header-anchor" href="#setup" aria-label="Permalink to Setup">#</a>'],
    ['Docusaurus', '<a href="#setup" class="hash-link" aria-label="Direct link to Setup">\u200B</a>'],
    ['rustdoc', '<a href="#setup" class="anchor">§</a>'],
  ])('drops the %s permalink from a heading', async (_generator, anchor) => {
    const doc = await extract(`<h1>Guide</h1><h2>Setup${anchor}</h2><p>Install it.</p>`);
    // The first h1 stands for the page's title, so the path starts below it.
    expect(doc.sections.at(-1)?.heading).toBe('Setup');
    expect(doc.text).toMatch(/Setup\n\nInstall it\.$/);
  });

  it('keeps a link whose class only contains a permalink class name, and its words', async () => {
    const doc = await extract('<h2>See <a class="anchored-note" href="#n">the note</a></h2><p>x</p>');
    expect(doc.sections.at(-1)?.heading).toBe('See the note');
  });
});

describe('HTML definition lists (options, settings, parameters)', () => {
  const SETTINGS = `<title>git-config(1)</title><h1>git-config(1)</h1>
    <h2>Variables</h2><p>Settings, by name.</p>
    <dl>
      <dt class="hdlist1">gc.auto</dt>
      <dd><p>When there are approximately more than this many loose objects, git gc --auto packs them.</p>
        <p>The default value is 6700.</p></dd>
      <dt>gc.autoPackLimit</dt>
      <dd><p>The default value is 50.</p></dd>
    </dl>
    <p>Text after the list.</p>`;
  const body = (doc: Awaited<ReturnType<typeof extract>>, index: number): string => {
    const section = doc.sections[index];
    return section === undefined ? '' : doc.text.slice(section.start, section.end).trim();
  };

  it('each term opens an entry headed by its path, holding its label and its whole description', async () => {
    const doc = await extract(SETTINGS);
    // The h1 repeats the page title, so it heads nothing and stays out of every path.
    expect(doc.sections.map((section) => section.heading)).toEqual([
      null,
      'Variables',
      'Variables › gc.auto',
      'Variables › gc.autoPackLimit',
      'Variables',
    ]);
    expect(body(doc, 2)).toBe(
      'gc.auto\n\nWhen there are approximately more than this many loose objects, git gc --auto packs them.\n\nThe default value is 6700.',
    );
    expect(body(doc, 3)).toBe('gc.autoPackLimit\n\nThe default value is 50.');
    // The list's end closes its entries: the next paragraph is the heading's again.
    expect(body(doc, 4)).toBe('Text after the list.');
  });

  it('a nested list nests its terms under the outer term', async () => {
    const doc = await extract(
      '<title>T</title><h2>Options</h2><dl><dt>--color</dt><dd><p>Colors.</p><dl><dt>always</dt><dd><p>Always color.</p></dd></dl><p>More on color.</p></dd><dt>--quiet</dt><dd><p>Quiet.</p></dd></dl>',
    );
    expect(doc.sections.map((section) => section.heading)).toEqual([
      'Options',
      'Options › --color',
      'Options › --color › always',
      'Options › --color',
      'Options › --quiet',
    ]);
  });

  it('terms listed together name one entry', async () => {
    const doc = await extract(
      '<title>T</title><h2>Options</h2><dl><dt>-q</dt><dt>--quiet</dt><dd><p>Be quiet.</p></dd><dt>-v</dt><dd><p>Be loud.</p></dd></dl>',
    );
    expect(doc.sections.map((section) => section.heading)).toEqual([
      'Options',
      'Options › -q, --quiet',
      'Options › -v',
    ]);
    const entry = doc.sections[1];
    expect(entry === undefined ? '' : doc.text.slice(entry.start, entry.end).trim()).toBe('-q, --quiet\n\nBe quiet.');
  });
});
