import { afterEach, describe, expect, it } from 'vitest';
import {
  readSourceFixture,
  replyWith,
  startReplayServer,
  type RecordedRequest,
  type ReplayServer,
  type Responder,
} from '../../../test/fixtures/sources/replayServer.js';
import { sha256Hex } from '../../domain/hashing.js';
import { SCOPE_CATALOG } from '../../domain/scopeCatalog.js';
import type { Capability, CapabilityContext } from '../capability.js';
import { SourceUnavailableError } from '../web/sourceUnavailableError.js';
import { scholarlyCapabilities, type ScholarlyConfig } from './scholarlyCapabilities.js';

const ATTENTION_ABSTRACT =
  'The dominant sequence transduction models are based on complex recurrent or convolutional neural networks in an encoder-decoder configuration. The best performing models also connect the encoder and decoder through an attention mechanism. We propose a new simple network architecture, the Transformer, based solely on attention mechanisms, dispensing with recurrence and convolutions entirely. Experiments on two machine translation tasks show these models to be superior in quality while being more parallelizable and requiring significantly less time to train. Our model achieves 28.4 BLEU on the WMT 2014 English-to-German translation task, improving over the existing best results, including ensembles by over 2 BLEU.';

const NOW = Date.parse('2025-02-03T04:05:06.000Z');
const context = (): CapabilityContext => ({
  runId: 'run_test',
  turn: 2,
  signal: new AbortController().signal,
  now: () => NOW,
});

const servers: ReplayServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const OPENALEX = readSourceFixture('openalex/works-search-transformer.json');
const CROSSREF = readSourceFixture('crossref/works-query-transformer.json');
const ARXIV = readSourceFixture('arxiv/query-transformer.atom.xml');

const json = (body: string) => replyWith(200, 'application/json; charset=utf-8', body);
const atom = (body: string) => replyWith(200, 'application/atom+xml; charset=utf-8', body);

/** One loopback server standing in for all three APIs, each under its own path prefix. */
const bibliographicServer = async (routes: { openalex?: Responder; crossref?: Responder; arxiv?: Responder } = {}) => {
  const table: [string, Responder][] = [
    ['/openalex/', routes.openalex ?? json(OPENALEX)],
    ['/crossref/', routes.crossref ?? json(CROSSREF)],
    ['/arxiv/api/', routes.arxiv ?? atom(ARXIV)],
  ];
  const server = await startReplayServer((request, response, raw) => {
    const route = table.find(([prefix]) => request.pathname.startsWith(prefix));
    if (route === undefined) replyWith(404, 'text/plain', 'no route')(request, response, raw);
    else route[1](request, response, raw);
  });
  servers.push(server);
  return server;
};

const allSources = (origin: string, extra: Partial<ScholarlyConfig> = {}): ScholarlyConfig => ({
  openAlexUrl: `${origin}/openalex`,
  crossrefUrl: `${origin}/crossref`,
  arxivUrl: `${origin}/arxiv/api`,
  ...extra,
});

const capability = (config: ScholarlyConfig, id: string): Capability => {
  const found = scholarlyCapabilities(config).find((c) => c.id === id);
  if (found === undefined) throw new Error(`${id} not configured`);
  return found;
};

const lookup = (config: ScholarlyConfig, raw: unknown) => {
  const lookupPapers = capability(config, 'scholarly.lookup_papers');
  return lookupPapers.execute(lookupPapers.input.parse(raw), context());
};

const requestTo = (server: ReplayServer, prefix: string): RecordedRequest => {
  const found = server.requests.find((request) => request.pathname.startsWith(prefix));
  if (found === undefined) throw new Error(`no request to ${prefix}`);
  return found;
};

describe('scholarlyCapabilities', () => {
  it('offers only what the configuration can serve, with the catalog ids and family', () => {
    const entry = SCOPE_CATALOG.get('scholarly_research');
    expect(scholarlyCapabilities({})).toEqual([]);
    expect(scholarlyCapabilities({ crossrefUrl: 'https://api.crossref.org' }).map((c) => c.id)).toEqual([
      'scholarly.lookup_papers',
      'scholarly.extract_numbers',
    ]);
    const all = scholarlyCapabilities(allSources('http://127.0.0.1:9'));
    expect(all.map((c) => c.id)).toEqual(entry?.capabilities);
    for (const c of all) expect(c).toMatchObject({ scope: 'scholarly_research', family: entry?.requiredFamily });
  });

  it('refuses endpoints with credentials and malformed contact addresses', () => {
    expect(() => scholarlyCapabilities({ openAlexUrl: 'https://key:secret@api.openalex.org' })).toThrow(
      'openAlexUrl must not contain credentials.',
    );
    expect(() => scholarlyCapabilities({ mailto: 'a@b.org&api_key=x' })).toThrow('mailto must be an e-mail address.');
  });
});

describe('scholarly.lookup_papers', () => {
  it('queries each configured API in its own dialect and sends no credentials', async () => {
    const server = await bibliographicServer();
    await lookup(allSources(server.origin, { mailto: 'research@example.org' }), {
      query: 'transformer attention',
      limit: 3,
    });

    const openalex = requestTo(server, '/openalex/');
    expect(openalex.pathname).toBe('/openalex/works');
    expect(Object.fromEntries(openalex.query)).toEqual({
      search: 'transformer attention',
      'per-page': '3',
      mailto: 'research@example.org',
    });
    const crossref = requestTo(server, '/crossref/');
    expect(crossref.pathname).toBe('/crossref/works');
    expect(Object.fromEntries(crossref.query)).toEqual({
      query: 'transformer attention',
      rows: '3',
      mailto: 'research@example.org',
    });
    const arxiv = requestTo(server, '/arxiv/');
    expect(arxiv.pathname).toBe('/arxiv/api/query');
    expect(Object.fromEntries(arxiv.query)).toEqual({ search_query: 'all:transformer attention', max_results: '3' });
    expect(arxiv.headers.accept).toContain('application/atom+xml');

    for (const request of server.requests) {
      expect(request.method).toBe('GET');
      expect(request.headers.authorization).toBeUndefined();
      expect(request.headers.cookie).toBeUndefined();
    }
  });

  it('merges the sources, drops duplicates by DOI and arXiv id, and keeps the description with an abstract', async () => {
    const server = await bibliographicServer();
    const result = await lookup(allSources(server.origin), { query: 'transformer attention' });

    expect(result.hits.map((hit) => hit.documentId)).toEqual([
      'arxiv:1706.03762', // OpenAlex (arXiv DOI) and arXiv (1706.03762v7): one paper
      'doi:10.1038/s41586-021-03819-2', // OpenAlex and Crossref: one paper
      'doi:10.18653/v1/n19-1423',
      'arxiv:2005.14165',
      'arxiv:2303.08774',
    ]);
    expect(result.hits.map((hit) => hit.score)).toEqual([2, 1.5, 0.5, 0.5, 1 / 3]);
    expect(result.hits.map((hit) => hit.ref)).toEqual(result.artifacts.map((a) => a.ref));

    const [attention, alphafold, bert, gpt3] = result.artifacts;
    expect(attention).toMatchObject({
      kind: 'evidence',
      family: 'scholarly_evidence',
      capabilityId: 'scholarly.lookup_papers',
      title: 'Attention Is All You Need',
      provenance: {
        source_id: 'openalex',
        locator: 'https://doi.org/10.48550/arxiv.1706.03762',
        retrieved_at: '2025-02-03T04:05:06.000Z',
        turn: 2,
      },
    });
    // The abstract came back from OpenAlex's inverted index in reading order.
    expect(result.hits[0]?.text).toMatch(
      /^The dominant sequence transduction models are based on complex recurrent or convolutional/,
    );
    expect(attention?.sha256).toBe(sha256Hex(`Attention Is All You Need\n\n${ATTENTION_ABSTRACT}`));

    // OpenAlex has no abstract for AlphaFold; Crossref's JATS one wins, without markup.
    expect(alphafold?.provenance).toMatchObject({
      source_id: 'crossref',
      locator: 'https://doi.org/10.1038/s41586-021-03819-2',
    });
    expect(result.hits[1]?.text).toMatch(/^Proteins are essential to life/);
    expect(result.hits[1]?.text).toContain('effort 1–4 , the structures');
    expect(alphafold?.excerpt).not.toContain('jats');

    expect(bert).toMatchObject({
      title: 'BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding',
    });
    expect(bert?.excerpt).toBe('BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding');

    expect(gpt3?.provenance).toMatchObject({ source_id: 'arxiv', locator: 'https://arxiv.org/abs/2005.14165v4' });
    expect(gpt3?.excerpt).toContain('few-shot setting & report results on <50 tasks.');
  });

  it('honours the limit after merging', async () => {
    const server = await bibliographicServer();
    const result = await lookup(allSources(server.origin), { query: 'transformer', limit: 2 });
    expect(result.artifacts).toHaveLength(2);
  });

  it('carries on with the sources that answered when one fails', async () => {
    const server = await bibliographicServer({ crossref: replyWith(500, 'application/json', '{}') });
    const result = await lookup(allSources(server.origin), { query: 'transformer attention' });
    expect(result.artifacts.map((a) => a.provenance.source_id)).not.toContain('crossref');
    expect(result.artifacts.length).toBeGreaterThan(0);
  });

  it('is unavailable when every source fails', async () => {
    const server = await bibliographicServer({
      openalex: replyWith(200, 'text/html', '<html>rate limited</html>'),
      crossref: replyWith(503, 'application/json', '{}'),
      arxiv: replyWith(200, 'application/json', '{}'),
    });
    const error = await lookup(allSources(server.origin), { query: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceUnavailableError);
    expect(error).toMatchObject({ code: 'source_unavailable', capabilityId: 'scholarly.lookup_papers' });
  });

  it('times out on sources that never answer, within the timeout', async () => {
    const silent: Responder = () => undefined;
    const server = await bibliographicServer({ openalex: silent, crossref: silent, arxiv: silent });
    const error = await lookup(allSources(server.origin, { timeoutMs: 150 }), { query: 'x' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'source_unavailable', failure: 'timeout' });
  });

  it('refuses redirects, oversized answers and answers that are not what the API serves', async () => {
    const target = await bibliographicServer();
    const server = await bibliographicServer({
      openalex: (_request, response) => {
        response.writeHead(301, { location: `${target.origin}/openalex/works` });
        response.end();
      },
      crossref: json(JSON.stringify({ message: { items: [] }, padding: 'x'.repeat(3 * 1024 * 1024) })),
      arxiv: replyWith(200, 'application/atom+xml', '<html><body>maintenance</body></html>'),
    });
    const only = (key: keyof ScholarlyConfig) => ({ [key]: allSources(server.origin)[key] });
    await expect(lookup(only('openAlexUrl'), { query: 'x' })).rejects.toMatchObject({ failure: 'redirect' });
    expect(target.requests).toHaveLength(0);
    await expect(lookup(only('crossrefUrl'), { query: 'x' })).rejects.toMatchObject({ failure: 'too_large' });
    await expect(lookup(only('arxivUrl'), { query: 'x' })).rejects.toMatchObject({ failure: 'malformed_response' });
  });
});
