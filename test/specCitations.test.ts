import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findSpecCitationProblems, specDocumentNames } from './support/specCitations.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
// This file plants bad citations on purpose (in a scratch tree), so the repository scan skips it.
const THIS_FILE = 'test/specCitations.test.ts';

describe('spec citations in the repository', () => {
  it('docs/spec holds the seven contract documents the code cites', () => {
    expect(specDocumentNames(REPO).sort()).toEqual([
      'adr-0004-scoped-api-keys.md',
      'agent-task-mcp-reference.md',
      'codex-protocol-notes.md',
      'codex-subscription-protocol.md',
      'helix-agent-api-v1.md',
      'security-test-matrix.md',
      'shared-live-room-requirements.md',
    ]);
  });

  it('every spec citation in src, test, scripts, bench and docs names a file in docs/spec, and its quoted section is there', () => {
    expect(findSpecCitationProblems(REPO, [THIS_FILE])).toEqual([]);
  });
});

describe('the citation check', () => {
  const roots: string[] = [];
  afterAll(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  /** The problems found in a fresh scratch repository holding a small docs/spec and `files`. */
  const problemsWith = (files: Record<string, string>): ReturnType<typeof findSpecCitationProblems> => {
    const root = mkdtempSync(join(tmpdir(), 'helix-spec-citations-'));
    roots.push(root);
    const tree: Record<string, string> = {
      'docs/spec/helix-agent-api-v1.md': '# Helix Agent API v1\n\n## Idempotency and versioning\n',
      'docs/spec/adr-0004-scoped-api-keys.md': '# ADR-0004\n\n## Known drift\n',
      'docs/spec/README.md': 'The contract, as received.\n',
      // The received documents are not scanned: their own references are theirs (ADR-0003 here).
      'docs/spec/security-test-matrix.md': 'See ADR-0003 and ../shared/spec/elsewhere.md.\n',
      ...files,
    };
    for (const [path, text] of Object.entries(tree)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return findSpecCitationProblems(root);
  };

  it('accepts citations by repository path, Markdown links relative to docs/, and quotes wrapped over comment lines', () => {
    expect(
      problemsWith({
        'src/good.ts': [
          '/** docs/spec/helix-agent-api-v1.md ("Idempotency and versioning"). */',
          '/**',
          ' * ADR-0004 (docs/spec/adr-0004-scoped-api-keys.md "Known',
          ' * drift").',
          ' */',
        ].join('\n'),
        'docs/guide.md':
          'See [the API](spec/helix-agent-api-v1.md) and [`docs/spec/helix-agent-api-v1.md`](spec/helix-agent-api-v1.md).\n',
      }),
    ).toEqual([]);
  });

  it('refuses a cited spec file that is not in the repository', () => {
    expect(
      problemsWith({
        'src/missing.ts': '// docs/spec/helix-agent-api-v2.md "Idempotency and versioning"\n',
        'docs/missing.md': 'line one\n[the matrix](spec/security-matrix.md)\n',
      }),
    ).toEqual([
      {
        file: 'docs/missing.md',
        line: 2,
        citation: 'spec/security-matrix.md',
        reason: 'docs/spec/security-matrix.md does not exist in the repository',
      },
      {
        file: 'src/missing.ts',
        line: 1,
        citation: 'docs/spec/helix-agent-api-v2.md',
        reason: 'docs/spec/helix-agent-api-v2.md does not exist in the repository',
      },
    ]);
  });

  it('refuses a spec document named by a path outside the repository, even when a copy exists inside', () => {
    const found = problemsWith({
      'src/outside.ts': '/** (../shared/spec/helix-agent-api-v1.md) */\n// ../../docs/spec/helix-agent-api-v1.md\n',
    });
    expect(
      found.map((p) => [p.line, p.citation, p.reason.startsWith('names a spec document outside the repository')]),
    ).toEqual([
      [1, '../shared/spec/helix-agent-api-v1.md', true],
      [2, '../../docs/spec/helix-agent-api-v1.md', true],
    ]);
  });

  it('refuses a spec document named without its path, with or without .md', () => {
    expect(
      problemsWith({
        'scripts/bare.ts': '// helix-agent-api-v1, "Idempotency and versioning"\n// and adr-0004-scoped-api-keys.md\n',
      }),
    ).toEqual([
      {
        file: 'scripts/bare.ts',
        line: 1,
        citation: 'helix-agent-api-v1',
        reason: 'cite it by its path, docs/spec/helix-agent-api-v1.md',
      },
      {
        file: 'scripts/bare.ts',
        line: 2,
        citation: 'adr-0004-scoped-api-keys.md',
        reason: 'cite it by its path, docs/spec/adr-0004-scoped-api-keys.md',
      },
    ]);
  });

  it('refuses a quoted section that the cited document does not contain', () => {
    expect(
      problemsWith({ 'test/section.test.ts': '// docs/spec/helix-agent-api-v1.md "Idempotency and retries"\n' }),
    ).toEqual([
      {
        file: 'test/section.test.ts',
        line: 1,
        citation: 'docs/spec/helix-agent-api-v1.md "Idempotency and retries"',
        reason: '"Idempotency and retries" is not in docs/spec/helix-agent-api-v1.md',
      },
    ]);
  });

  it('refuses an ADR number with no document in docs/spec', () => {
    expect(problemsWith({ 'bench/adr.ts': '// ADR-0006 provider scopes\n' })).toEqual([
      { file: 'bench/adr.ts', line: 1, citation: 'ADR-0006', reason: 'no docs/spec/adr-0006-*.md in the repository' },
    ]);
  });
});
