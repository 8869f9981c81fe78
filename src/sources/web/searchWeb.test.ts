import { afterEach, describe, expect, it } from 'vitest';
import {
  readSourceFixture,
  replyWith,
  startReplayServer,
  type ReplayServer,
} from '../../../test/fixtures/sources/replayServer.js';
import { SCOPE_CATALOG } from '../../domain/scopeCatalog.js';
import type { Capability, CapabilityContext } from '../capability.js';
import { publicWebCapabilities } from './publicWebCapabilities.js';
import { SourceUnavailableError } from './sourceUnavailableError.js';

const NOW = Date.parse('2025-01-02T03:04:05.000Z');
const context = (signal: AbortSignal = new AbortController().signal): CapabilityContext => ({
  runId: 'run_test',
  turn: 4,
  signal,
  now: () => NOW,
});

const servers: ReplayServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const searxng = async (body = readSourceFixture('searxng/search-sqlite-wal.json')) => {
  const server = await startReplayServer(replyWith(200, 'application/json; charset=utf-8', body));
  servers.push(server);
  return server;
};

const searchWeb = (config: Parameters<typeof publicWebCapabilities>[0]): Capability => {
  const [capability] = publicWebCapabilities(config);
  if (capability === undefined) throw new Error('no capability');
  return capability;
};

const run = (capability: Capability, raw: unknown, ctx = context()) =>
  capability.execute(capability.input.parse(raw), ctx);

describe('internet-search.search_web', () => {
  it('is the catalog capability of public_web with the catalog family', () => {
    const capability = searchWeb({ searchUrl: 'http://127.0.0.1:9/search' });
    const entry = SCOPE_CATALOG.get('public_web');
    expect(entry?.capabilities).toContain(capability.id);
    expect(capability).toMatchObject({ scope: 'public_web', family: entry?.requiredFamily, kind: 'search' });
  });

  it('asks the SearXNG endpoint for JSON with the query and sends no credentials', async () => {
    const server = await searxng();
    await run(searchWeb({ searchUrl: `${server.origin}/search?language=en` }), { query: 'sqlite WAL & checkpoint' });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.method).toBe('GET');
    expect(request?.pathname).toBe('/search');
    expect(request?.query.get('q')).toBe('sqlite WAL & checkpoint');
    expect(request?.query.get('format')).toBe('json');
    expect(request?.query.get('language')).toBe('en');
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.headers.cookie).toBeUndefined();
    expect(request?.headers.accept).toBe('application/json');
  });

  it('maps results to evidence artifacts with provenance and scored hits', async () => {
    const server = await searxng();
    const result = await run(searchWeb({ searchUrl: `${server.origin}/search` }), { query: 'sqlite wal' });
    expect(result.artifacts).toHaveLength(3);
    const [first, second, third] = result.artifacts;
    expect(first).toMatchObject({
      kind: 'evidence',
      family: 'internet_search_evidence',
      capabilityId: 'internet-search.search_web',
      title: 'Write-Ahead Logging',
      provenance: {
        source_id: 'web:www.sqlite.org',
        locator: 'https://www.sqlite.org/wal.html',
        retrieved_at: '2025-01-02T03:04:05.000Z',
        turn: 4,
      },
    });
    expect(first?.ref).toMatch(/^artifact:sha256:[0-9a-f]{40}$/);
    expect(first?.excerpt).toContain('rollback journal');
    expect(second?.provenance.locator).toBe('https://www.sqlite.org/pragma.html#pragma_wal_checkpoint');
    expect(third?.provenance.source_id).toBe('web:fly.io');
    expect(third?.excerpt).toContain('Published: 2022-09-07T00:00:00');

    expect(result.hits.map((hit) => hit.ref)).toEqual(result.artifacts.map((artifact) => artifact.ref));
    expect(result.hits.map((hit) => hit.score)).toEqual([7.5, 0.3333333333333333, 0.25]);
    expect(result.hits[1]?.documentId).toBe('https://www.sqlite.org/pragma.html');
  });

  it('honours the caller limit and the configured maxResults', async () => {
    const server = await searxng();
    const limited = await run(searchWeb({ searchUrl: `${server.origin}/search` }), { query: 'wal', limit: 2 });
    expect(limited.artifacts).toHaveLength(2);
    const capped = await run(searchWeb({ searchUrl: `${server.origin}/search`, maxResults: 1 }), {
      query: 'wal',
      limit: 8,
    });
    expect(capped.hits).toHaveLength(1);
  });

  it('drops duplicate and non-http results instead of failing the search', async () => {
    const body = JSON.stringify({
      results: [
        { url: 'https://example.org/a#one', title: 'A', content: 'first' },
        { url: 'https://example.org/a#two', title: 'A again', content: 'duplicate' },
        { url: 'javascript:alert(1)', title: 'script', content: 'x' },
        { title: 'no url' },
        { url: 'https://example.org/b', engine: 'bing' },
      ],
    });
    const server = await searxng(body);
    const result = await run(searchWeb({ searchUrl: `${server.origin}/search` }), { query: 'anything' });
    expect(result.artifacts.map((a) => a.provenance.locator)).toEqual([
      'https://example.org/a#one',
      'https://example.org/b',
    ]);
    expect(result.artifacts[1]?.title).toBe('example.org');
  });

  it('refuses a JSON body that is not a SearXNG answer', async () => {
    const server = await searxng(JSON.stringify({ error: 'rate limited' }));
    await expect(run(searchWeb({ searchUrl: `${server.origin}/search` }), { query: 'wal' })).rejects.toMatchObject({
      code: 'source_unavailable',
      capabilityId: 'internet-search.search_web',
      failure: 'malformed_response',
    });
  });

  it('validates input: the query is 1-500 characters and the limit 1-20', () => {
    const capability = searchWeb({ searchUrl: 'http://127.0.0.1:9/search' });
    expect(capability.input.safeParse({ query: '   ' }).success).toBe(false);
    expect(capability.input.safeParse({ query: 'x'.repeat(501) }).success).toBe(false);
    expect(capability.input.safeParse({ query: 'x', limit: 21 }).success).toBe(false);
    expect(capability.input.parse({ query: ' x ' })).toEqual({ query: 'x', limit: 8 });
  });

  it('refuses configured URLs with credentials without echoing them', () => {
    expect(() => searchWeb({ searchUrl: 'http://user:hunter2@127.0.0.1:9/search' })).toThrow(
      'searchUrl must not contain credentials.',
    );
    expect(() => searchWeb({ searchUrl: 'file:///etc/passwd' })).toThrow('searchUrl must be an http or https URL.');
    expect(() => searchWeb({ searchUrl: 'http://127.0.0.1:9/', timeoutMs: 0 })).toThrow(TypeError);
  });

  it('reports a dead endpoint as SourceUnavailableError', async () => {
    const server = await searxng();
    const searchUrl = `${server.origin}/search`;
    await server.close();
    servers.length = 0;
    const error = await run(searchWeb({ searchUrl }), { query: 'wal' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceUnavailableError);
    expect((error as SourceUnavailableError).failure).toBe('network');
  });
});
