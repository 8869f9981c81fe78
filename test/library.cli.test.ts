import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCliServer, type ServerProcess } from './support/processes.js';
import { ceilingFor } from './support/ceilings.js';
import { writeSphinxSite } from './support/sphinxSite.js';

const writePdf = async (path: string): Promise<void> => {
  const doc = await PDFDocument.create();
  doc.setTitle('Thermal report');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage().drawText('The thermal expansion coefficient of the bracket is twelve parts per million.', {
    x: 40,
    y: 700,
    size: 11,
    font,
  });
  writeFileSync(path, await doc.save());
};

describe('helix library and helix ask', () => {
  let dir: string;
  let database: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'helix-lib-cli-'));
    database = join(dir, 'helix.db');
    writeFileSync(
      join(dir, 'notes.md'),
      '# Bracket notes\n\nThe bracket is machined from 6061 aluminium and anodized.\n',
    );
    writeFileSync(join(dir, 'slides.pptx'), 'not a supported format');
    await writePdf(join(dir, 'thermal.pdf'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('adds with progress, re-adding unchanged files is a no-op, a changed file replaces its passages', {
    timeout: ceilingFor(4),
  }, async () => {
    const first = await runCli([
      'library',
      'add',
      join(dir, 'notes.md'),
      join(dir, 'thermal.pdf'),
      '--database',
      database,
    ]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/\[1\/2\] added\s+\S*notes\.md \(1 passage\)/);
    expect(first.stderr).toMatch(/\[2\/2\] added\s+\S*thermal\.pdf/);
    expect(first.stdout).toContain('2 added, 0 updated, 0 unchanged, 0 skipped, 0 failed');

    const again = await runCli([
      'library',
      'add',
      join(dir, 'notes.md'),
      join(dir, 'thermal.pdf'),
      '--database',
      database,
    ]);
    expect(again.stdout).toContain('0 added, 0 updated, 2 unchanged, 0 skipped, 0 failed');

    writeFileSync(join(dir, 'notes.md'), '# Bracket notes\n\nThe bracket is now cast in titanium.\n');
    const changed = await runCli(['library', 'add', join(dir, 'notes.md'), '--database', database]);
    expect(changed.stdout).toContain('0 added, 1 updated');

    const listed = await runCli(['library', 'list', '--database', database]);
    expect(listed.stdout).toMatch(/notes\.md\ttext\/markdown\t1 passage\tBracket notes/);
    expect(listed.stdout).toMatch(/thermal\.pdf\tapplication\/pdf\t1 passage\tThermal report/);
  });

  it('refuses a document over a limit with a line naming the limit and how to raise it, indexes the rest, and exits 1', {
    timeout: ceilingFor(2),
  }, async () => {
    const database = join(dir, 'limits.db');
    writeFileSync(join(dir, 'long.md'), `# Long\n\n${'A sentence about drift. '.repeat(40)}\n`);
    const res = await runCli([
      'library',
      'add',
      join(dir, 'long.md'),
      join(dir, 'notes.md'),
      '--database',
      database,
      '--max-text-chars',
      '200',
    ]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      /\[1\/2\] refused {3}\S*long\.md: Refused "\S*long\.md": more than 200 characters of text \(the textChars limit; stopped at \d+\); raise it with --max-text-chars or HELIX_LIBRARY_MAX_TEXT_CHARS\n/,
    );
    expect(res.stderr).toMatch(/\[2\/2\] added\s+\S*notes\.md/);
    expect(res.stdout).toContain(
      'library: 1 added, 0 updated, 0 unchanged, 0 skipped, 0 failed, 1 refused; 1 passage indexed',
    );
    expect(res.stderr).toContain('helix: 1 file could not be indexed (1 refused by a per-document limit)');
    const listed = await runCli(['library', 'list', '--database', database]);
    expect(listed.stdout).not.toContain('long.md');
    expect(listed.stdout).toContain('notes.md');
  });

  it('takes limits from HELIX_LIBRARY_MAX_* under the options, and refuses bad values with exit code 2', {
    timeout: ceilingFor(4),
  }, async () => {
    const database = join(dir, 'env-limits.db');
    const twoSections = join(dir, 'two.md');
    writeFileSync(twoSections, '# One\n\nfirst\n\n# Two\n\nsecond\n');
    const refused = await runCli(['library', 'add', twoSections, '--database', database], {
      HELIX_LIBRARY_MAX_PASSAGES: '1',
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /refused {3}\S*two\.md: .*more than 1 passages \(the passages limit; stopped at 2\); raise it with --max-passages or HELIX_LIBRARY_MAX_PASSAGES/,
    );
    // The option wins over the environment.
    const added = await runCli(['library', 'add', twoSections, '--database', database, '--max-passages', '2'], {
      HELIX_LIBRARY_MAX_PASSAGES: '1',
    });
    expect(added.stdout).toContain('1 added');

    const badEnvironment = await runCli(['library', 'add', twoSections, '--database', database], {
      HELIX_LIBRARY_MAX_PASSAGES: 'many',
    });
    expect(badEnvironment).toMatchObject({
      code: 2,
      stderr:
        'helix: configuration error: HELIX_LIBRARY_MAX_PASSAGES must be a whole number (got a non-numeric value)\n',
    });
    const badOption = await runCli(['library', 'add', twoSections, '--database', database, '--max-pdf-pages', '0']);
    expect(badOption).toMatchObject({ code: 2, stderr: 'helix: --max-pdf-pages must be between 1 and 100000\n' });
  });

  it('refuses unsupported files with a reason and a nonzero exit, indexing the rest', {
    timeout: ceilingFor(1),
  }, async () => {
    const res = await runCli([
      'library',
      'add',
      join(dir, 'slides.pptx'),
      join(dir, 'missing.md'),
      '--database',
      database,
    ]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('".pptx" files are not supported');
    expect(res.stderr).toContain('no such file or directory');
  });

  describe('against a running server', () => {
    let server: ServerProcess;
    let key: string;
    beforeAll(async () => {
      server = await startCliServer(database, {
        HELIX_AGENT_DATABASE_SCOPES: 'research_library',
        HELIX_LOG_LEVEL: 'warn',
      });
      const created = await runCli([
        'keys',
        'create',
        '--tenant',
        't',
        '--account',
        'a',
        '--scopes',
        'helix.agent_runs.read helix.agent_runs.write helix.data.research_library.read',
        '--database',
        database,
      ]);
      key = created.stdout.trimEnd().split('\n').at(-1)!;
    }, ceilingFor(2));
    afterAll(async () => server.kill('SIGTERM'));

    it('helix ask answers with cited sources from the PDF, showing each turn', { timeout: ceilingFor(1) }, async () => {
      const res = await runCli(
        ['ask', 'What is the thermal expansion coefficient of the bracket?', '--url', server.url],
        { HELIX_TOKEN: key },
      );
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toMatch(/turn 1: completed · \d+ evidence/);
      expect(res.stdout).toContain('twelve parts per million. [1]');
      expect(res.stdout).toMatch(/\[1\] Thermal report — \S*thermal\.pdf \(chars \d+-\d+\)/);
      expect(res.stdout).not.toContain(key);
    });

    it('helix ask says so when the library cannot answer, and exits nonzero', { timeout: ceilingFor(1) }, async () => {
      const res = await runCli(['ask', 'Who won the 1998 football world cup?', '--url', server.url], {
        HELIX_TOKEN: key,
      });
      expect(res.code).toBe(4);
      // The run says broaden_scope after the first turn, so helix ask stops there instead of retrying.
      expect(res.stdout).toContain(
        'No authorized answer (needs_more_evidence, the admitted sources do not hold the answer)',
      );
    });

    it('helix ask needs a token from the environment', { timeout: ceilingFor(1) }, async () => {
      const res = await runCli(['ask', 'anything', '--url', server.url], { HELIX_TOKEN: '' });
      expect(res.code).toBe(2);
      expect(res.stderr).toContain('set HELIX_TOKEN');
    });

    it('removing a document takes it out of search', { timeout: ceilingFor(2) }, async () => {
      const removed = await runCli(['library', 'remove', join(dir, 'thermal.pdf'), '--database', database]);
      expect(removed.code, removed.stderr).toBe(0);
      const res = await runCli(
        ['ask', 'What is the thermal expansion coefficient of the bracket?', '--url', server.url],
        { HELIX_TOKEN: key },
      );
      expect(res.stdout).not.toContain('twelve parts per million');
    });
  });
});

// Issue 27 item 20: `library add` on a Sphinx build indexed every page twice (HTML and _sources/*.rst.txt).
describe('helix library add on a Sphinx HTML tree', () => {
  let dir: string;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('skips the source copies by default and what --exclude names; a pattern that cannot match as written exits 2', {
    timeout: ceilingFor(3),
  }, async () => {
    dir = mkdtempSync(join(tmpdir(), 'helix-lib-sphinx-'));
    const site = writeSphinxSite(dir);
    const database = join(dir, 'helix.db');
    const added = await runCli(['library', 'add', site, '--exclude', 'changelog.html', '--database', database]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('library: 2 added, 0 updated, 0 unchanged, 0 skipped, 0 failed, 0 refused');
    expect(added.stderr).toMatch(/\[1\/2\] added\s+\S*index\.html/);
    expect(added.stderr).toMatch(/\[2\/2\] added\s+\S*usage\.html/);
    expect(added.stderr).not.toMatch(/_sources|_static|changelog|buildinfo/);

    const bad = await runCli(['library', 'add', site, '--exclude', 'api/[v1', '--database', database]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--exclude "api/[v1" has a [ without its ]');
    expect(bad.stdout).toBe('');

    const everything = await runCli(['library', 'add', site, '--no-default-excludes', '--database', database]);
    expect(everything.code, everything.stderr).toBe(0);
    expect(everything.stderr).toMatch(/added\s+\S*_sources\/usage\.rst\.txt/);
  });
});
