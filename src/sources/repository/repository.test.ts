import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HelixError } from '../../domain/errors.js';
import { SCOPE_CATALOG } from '../../domain/scopeCatalog.js';
import type { Capability, CapabilityContext, CapabilityResult } from '../capability.js';
import { SourceUnavailableError } from '../web/sourceUnavailableError.js';
import { repositoryCapabilities, type RepositoryConfig } from './repositoryCapabilities.js';

const MAX_FILE_BYTES = 4096;
/** Every file the capabilities must never disclose carries one of these markers. */
const SECRETS = [
  'OUTSIDE_SECRET',
  'OUTSIDE_DIR_SECRET',
  'ENV_SECRET',
  'GENERATED_SECRET',
  'DEBUG_LOG_SECRET',
  'BUILD_SECRET',
  'NODE_MODULES_SECRET',
  'GIT_SECRET',
  'PRIVATE_SECRET',
  'BINARY_SECRET',
  'OVERSIZE_SECRET',
];

/** Names in the refused paths that no refusal message has reason to contain. */
const DISTINCTIVE_NAMES = [
  'outside',
  'secret',
  'passwd',
  'Windows',
  '.env',
  'leak',
  'alias',
  'generated',
  'debug',
  'out.js',
  'private',
  'config',
  'pkg',
  'logo',
  'big.txt',
  'missing',
  'README',
  'server.ts',
  'src',
];

let base: string;
let root: string;
let secondRoot: string;

const write = async (relative: string, content: string | Buffer) => {
  const file = path.join(base, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
};

const SERVER_TS = [
  "import { createServer } from 'node:http';",
  '',
  '// Checkpoint the write-ahead log before shutdown.',
  'export const startServer = (port: number) => {',
  '  const server = createServer();',
  '  server.listen(port);',
  '  return server;',
  '};',
  '',
  'export const stopServer = async (server: Server) => {',
  '  await checkpointWal();',
  '  server.close();',
  '};',
].join('\n');

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'helix-repository-'));
  root = path.join(base, 'root');
  secondRoot = path.join(base, 'second');
  await write('outside/secret.txt', 'OUTSIDE_SECRET checkpoint\n');
  await write('outside/dir/leak.txt', 'OUTSIDE_DIR_SECRET checkpoint\n');

  await write('root/.gitignore', '*.log\nbuild/\n.env\n');
  await write('root/.env', 'API_KEY=ENV_SECRET checkpoint\n');
  await write('root/.git/config', '[core]\n\tGIT_SECRET = checkpoint\n');
  await write('root/.git/info/exclude', 'private/\n');
  await write('root/private/notes.txt', 'PRIVATE_SECRET checkpoint\n');
  await write('root/README.md', '# Fixture\n\nThe server checkpoints its log on shutdown.\n');
  await write('root/..notes.md', 'A file whose name starts with two dots: checkpoint notes.\n');
  await write('root/src/server.ts', `${SERVER_TS}\n`);
  await write('root/src/.gitignore', 'generated.ts\n!keep.log\n');
  await write('root/src/generated.ts', 'export const GENERATED_SECRET = "checkpoint";\n');
  await write('root/src/keep.log', 'kept log line mentioning checkpoint\n');
  await write('root/src/debug.log', 'DEBUG_LOG_SECRET checkpoint\n');
  await write('root/build/out.js', 'BUILD_SECRET checkpoint\n');
  await write('root/node_modules/pkg/index.js', 'NODE_MODULES_SECRET checkpoint\n');
  await write(
    'root/assets/logo.bin',
    Buffer.concat([Buffer.from('BINARY_SECRET checkpoint'), Buffer.from([0, 1, 2, 3])]),
  );
  await write('root/big.txt', `OVERSIZE_SECRET checkpoint\n${'x'.repeat(MAX_FILE_BYTES)}\n`);
  await mkdir(path.join(root, 'links'));
  await symlink(path.join(base, 'outside/secret.txt'), path.join(root, 'links/outside-file'));
  await symlink('../../outside/dir', path.join(root, 'links/outside-dir'));
  await symlink('../src/server.ts', path.join(root, 'links/inside-file'));
  await symlink('../.env', path.join(root, 'links/env-alias'));
  await symlink('..', path.join(root, 'links/loop'));
  // Out of the root and back in: the final target is inside, the way there is not.
  await symlink(path.join(root, 'src'), path.join(base, 'outside/dir/back'));

  await write('second/docs/guide.md', 'Second root: run a checkpoint nightly.\n');
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const NOW = Date.parse('2025-03-04T05:06:07.000Z');
const context = (signal: AbortSignal = new AbortController().signal): CapabilityContext => ({
  runId: 'run_test',
  turn: 7,
  signal,
  now: () => NOW,
});

const capabilities = (config: Partial<RepositoryConfig> = {}) => {
  const [search, read] = repositoryCapabilities({ roots: [root], maxFileBytes: MAX_FILE_BYTES, ...config });
  if (search === undefined || read === undefined) throw new Error('missing capability');
  return { search, read };
};

const run = (capability: Capability, raw: unknown, ctx = context()): Promise<CapabilityResult> =>
  capability.execute(capability.input.parse(raw), ctx);

const refusalOf = async (promise: Promise<unknown>): Promise<HelixError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HelixError);
  expect((error as HelixError).code).toBe('invalid_request');
  return error as HelixError;
};

const disclosesSecret = (result: CapabilityResult): boolean =>
  [...result.artifacts.map((a) => a.excerpt), ...result.hits.map((h) => h.text)].some((text) =>
    SECRETS.some((secret) => text.includes(secret)),
  );

describe('repositoryCapabilities', () => {
  it('are the catalog capabilities of repository_evidence with the catalog family', () => {
    const entry = SCOPE_CATALOG.get('repository_evidence');
    const { search, read } = capabilities();
    expect([search.id, read.id]).toEqual(entry?.capabilities);
    expect(search).toMatchObject({ kind: 'search', scope: 'repository_evidence', family: entry?.requiredFamily });
    expect(read).toMatchObject({ kind: 'read', scope: 'repository_evidence', family: entry?.requiredFamily });
  });

  it('refuses an empty root list and unusable limits', () => {
    expect(() => repositoryCapabilities({ roots: [] })).toThrow(TypeError);
    expect(() => repositoryCapabilities({ roots: [root], maxFileBytes: -1 })).toThrow(
      'maxFileBytes must be a positive integer.',
    );
  });
});

describe('repository.search', () => {
  it('returns line windows as evidence with root-relative provenance', async () => {
    const { search } = capabilities();
    const result = await run(search, { query: 'stopServer checkpointWal' });
    expect(result.artifacts).toHaveLength(1);
    expect(result.artifacts[0]).toMatchObject({
      kind: 'evidence',
      family: 'repository_evidence',
      capabilityId: 'repository.search',
      title: 'src/server.ts',
      provenance: {
        source_id: 'repository:0',
        locator: 'src/server.ts',
        span: { start: 7, end: 13 },
        retrieved_at: '2025-03-04T05:06:07.000Z',
        turn: 7,
      },
    });
    expect(result.artifacts[0]?.excerpt).toBe(SERVER_TS.split('\n').slice(6, 13).join('\n'));
    expect(result.hits[0]).toMatchObject({
      ref: result.artifacts[0]?.ref,
      title: 'src/server.ts',
      documentId: 'repository:src/server.ts',
    });
  });

  it('never returns ignored, excluded, binary, oversized or outside content', async () => {
    const { search } = capabilities();
    const result = await run(search, { query: 'checkpoint', limit: 20 });
    expect(new Set(result.artifacts.map((a) => a.provenance.locator))).toEqual(
      new Set(['..notes.md', 'README.md', 'src/keep.log', 'src/server.ts']),
    );
    expect(disclosesSecret(result)).toBe(false);
    for (const secret of SECRETS) {
      expect((await run(search, { query: secret })).artifacts, secret).toEqual([]);
    }
  });

  it('ranks a window holding every term above windows holding one', async () => {
    const { search } = capabilities();
    const result = await run(search, { query: 'listen port shutdown' });
    // server.ts lines 1-7 hold all three words; README.md only "shutdown".
    expect(result.artifacts.map((a) => a.provenance.locator)).toEqual(['src/server.ts', 'README.md']);
    const [first, second] = result.hits;
    expect(first?.score).toBeGreaterThan(second?.score ?? Number.POSITIVE_INFINITY);
  });

  it('finds nothing for a query of stopwords and short words', async () => {
    const { search } = capabilities();
    expect(await run(search, { query: 'the of a to' })).toEqual({ artifacts: [], hits: [] });
  });

  it('searches every root and names the root in the source id', async () => {
    const { search } = capabilities({ roots: [root, secondRoot] });
    const result = await run(search, { query: 'nightly checkpoint' });
    expect(result.artifacts[0]?.provenance).toMatchObject({ source_id: 'repository:1', locator: 'docs/guide.md' });
  });

  it('stops after maxFilesScanned files', async () => {
    const { search } = capabilities({ maxFilesScanned: 1 });
    const result = await run(search, { query: 'checkpoint', limit: 20 });
    // The walk is sorted: `..notes.md` is the first file of the root.
    expect(result.artifacts.map((a) => a.provenance.locator)).toEqual(['..notes.md']);
  });

  it('stops when the turn is cancelled, between files', async () => {
    const { search } = capabilities();
    const cancelled = new AbortController();
    cancelled.abort(new Error('turn cancelled'));
    await expect(run(search, { query: 'checkpoint' }, context(cancelled.signal))).rejects.toThrow('turn cancelled');

    const controller = new AbortController();
    let checks = 0;
    const signal = new Proxy(controller.signal, {
      get(target, property) {
        if (property === 'throwIfAborted') {
          return () => {
            checks += 1;
            if (checks > 3) throw new Error('cancelled mid-walk');
          };
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await expect(run(search, { query: 'checkpoint' }, context(signal))).rejects.toThrow('cancelled mid-walk');
  });

  it('reports a missing root as an unavailable source', async () => {
    const { search } = capabilities({ roots: [path.join(base, 'does-not-exist')] });
    await expect(run(search, { query: 'checkpoint' })).rejects.toBeInstanceOf(SourceUnavailableError);
  });
});

describe('repository.read_file', () => {
  it('reads a line range as an observation', async () => {
    const { read } = capabilities();
    const result = await run(read, { path: 'src/server.ts', start_line: 4, end_line: 8 });
    expect(result.hits).toEqual([]);
    expect(result.artifacts).toHaveLength(1);
    expect(result.artifacts[0]).toMatchObject({
      kind: 'observation',
      family: 'repository_evidence',
      capabilityId: 'repository.read_file',
      title: 'src/server.ts',
      excerpt: SERVER_TS.split('\n').slice(3, 8).join('\n'),
      provenance: { source_id: 'repository:0', locator: 'src/server.ts', span: { start: 4, end: 8 }, turn: 7 },
    });
  });

  it('reads to the end of the file by default and clamps the range to the file', async () => {
    const { read } = capabilities();
    const whole = await run(read, { path: './src//server.ts' });
    expect(whole.artifacts[0]?.provenance.span).toEqual({ start: 1, end: 13 });
    const clamped = await run(read, { path: 'src/server.ts', start_line: 12, end_line: 300 });
    expect(clamped.artifacts[0]?.provenance.span).toEqual({ start: 12, end: 13 });
    const past = await refusalOf(run(read, { path: 'src/server.ts', start_line: 14 }));
    expect(past.details.issues?.[0]?.path).toBe('start_line');
  });

  it('reads re-included files, in-root links (under their real name) and names starting with dots', async () => {
    const { read } = capabilities();
    expect((await run(read, { path: 'src/keep.log' })).artifacts[0]?.excerpt).toContain('kept log line');
    expect((await run(read, { path: 'links/inside-file', end_line: 1 })).artifacts[0]?.provenance.locator).toBe(
      'src/server.ts',
    );
    expect((await run(read, { path: '..notes.md' })).artifacts[0]?.excerpt).toContain('two dots');
    // A link back to the root stays inside it, however often it is taken.
    expect((await run(read, { path: 'links/loop/links/loop/README.md' })).artifacts[0]?.provenance.locator).toBe(
      'README.md',
    );
  });

  it('reads from the root named by the prefix when several roots are configured', async () => {
    const { read } = capabilities({ roots: [root, secondRoot] });
    const result = await run(read, { path: '1:docs/guide.md' });
    expect(result.artifacts[0]?.provenance).toMatchObject({ source_id: 'repository:1', locator: 'docs/guide.md' });
    expect((await run(read, { path: 'README.md' })).artifacts[0]?.provenance.source_id).toBe('repository:0');
    await refusalOf(run(read, { path: '2:README.md' }));
  });

  it.each([
    ['a parent segment', '../outside/secret.txt'],
    ['a parent segment mid-path', 'src/../../outside/secret.txt'],
    ['a parent segment that stays inside', 'src/../README.md'],
    ['an absolute path', '/etc/passwd'],
    ['an absolute path into the root', '__ROOT__/README.md'],
    ['a drive path', 'C:/Windows/win.ini'],
    ['backslashes', '..\\outside\\secret.txt'],
    ['a NUL byte', 'src/server.ts\u0000.png'],
    ['a file symlink leaving the root', 'links/outside-file'],
    ['a directory symlink leaving the root', 'links/outside-dir/leak.txt'],
    ['a path that leaves the root through a link and comes back', 'links/outside-dir/back/server.ts'],
    ['an ignored file', '.env'],
    ['an in-root link to an ignored file', 'links/env-alias'],
    ['a file ignored by a nested .gitignore', 'src/generated.ts'],
    ['a file ignored by pattern', 'src/debug.log'],
    ['a file in an ignored directory', 'build/out.js'],
    ['a file excluded by .git/info/exclude', 'private/notes.txt'],
    ['git internals', '.git/config'],
    ['dependencies', 'node_modules/pkg/index.js'],
    ['a binary file', 'assets/logo.bin'],
    ['an oversized file', 'big.txt'],
    ['a directory', 'src'],
    ['a missing file', 'src/missing.ts'],
  ])('refuses %s without echoing the path', async (_reason, requested) => {
    const { read } = capabilities();
    const pathValue = requested.replace('__ROOT__', root);
    const refusal = await refusalOf(run(read, { path: pathValue }));
    const issue = refusal.details.issues?.[0];
    expect(issue?.path).toBe('path');
    const said = `${refusal.message} ${issue?.message ?? ''}`;
    expect(said).not.toContain(pathValue);
    for (const name of DISTINCTIVE_NAMES) expect(said).not.toContain(name);
  });

  it('refuses a range of more than 400 lines in the input schema', () => {
    const { read } = capabilities();
    expect(read.input.safeParse({ path: 'a', start_line: 1, end_line: 400 }).success).toBe(true);
    expect(read.input.safeParse({ path: 'a', start_line: 1, end_line: 401 }).success).toBe(false);
    expect(read.input.safeParse({ path: 'a', start_line: 5, end_line: 4 }).success).toBe(false);
  });
});
