import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A Sphinx page: the theme's headerlink after every heading and definition term. */
const page = (title: string, body: string): string => `<!doctype html>
<html><head><meta charset="utf-8"><title>${title} — Demo 1.0 documentation</title></head>
<body><div class="body" role="main">${body}</div></body></html>`;

const headerlink = (id: string) => `<a class="headerlink" href="#${id}" title="Link to this heading">¶</a>`;

/**
 * A small tree laid out as `sphinx-build -b html` writes it: the pages, a copy of each page's
 * reStructuredText source under `_sources/` (`.rst.txt`, which the library reads as text), the
 * theme's assets under `_static/`, and the hidden `.buildinfo`. Returns the tree's folder.
 */
export const writeSphinxSite = (dir: string): string => {
  const site = join(dir, 'html');
  mkdirSync(join(site, '_sources'), { recursive: true });
  mkdirSync(join(site, '_static'), { recursive: true });
  writeFileSync(
    join(site, 'index.html'),
    page(
      'Welcome',
      `<section id="welcome"><h1>Welcome${headerlink('welcome')}</h1><p>Demo turns gearbox telemetry into reports.</p></section>`,
    ),
  );
  writeFileSync(
    join(site, 'usage.html'),
    page(
      'Usage',
      `<section id="usage"><h1>Usage${headerlink('usage')}</h1><p>Run the demo once per gearbox.</p>
<section id="options"><h2>Options${headerlink('options')}</h2><dl><dt id="cmdoption-q"><code>--quiet</code>${headerlink('cmdoption-q')}</dt>
<dd><p>Prints no progress while the gearbox report is written.</p></dd></dl></section></section>`,
    ),
  );
  writeFileSync(
    join(site, 'changelog.html'),
    page(
      'Changelog',
      `<section id="changelog"><h1>Changelog${headerlink('changelog')}</h1><p>1.0: first gearbox release.</p></section>`,
    ),
  );
  writeFileSync(
    join(site, '_sources', 'index.rst.txt'),
    'Welcome\n=======\n\nDemo turns gearbox telemetry into reports.\n',
  );
  writeFileSync(
    join(site, '_sources', 'usage.rst.txt'),
    'Usage\n=====\n\nRun the demo once per gearbox.\n\nOptions\n-------\n\n.. option:: --quiet\n\n   Prints no progress while the gearbox report is written.\n',
  );
  writeFileSync(join(site, '_sources', 'changelog.rst.txt'), 'Changelog\n=========\n\n1.0: first gearbox release.\n');
  writeFileSync(join(site, '_static', 'basic.css'), 'a.headerlink { visibility: hidden; }\n');
  writeFileSync(join(site, '_static', 'gearbox.txt'), 'A gearbox asset the theme ships.\n');
  writeFileSync(join(site, '.buildinfo'), '# Sphinx build info version 1\nconfig: 0123456789abcdef\n');
  return site;
};

/** The pages a reader sees: each indexed once, as HTML. */
export const SPHINX_PAGES = ['changelog.html', 'index.html', 'usage.html'] as const;
