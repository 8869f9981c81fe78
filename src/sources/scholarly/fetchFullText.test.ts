import { afterEach, describe, expect, it } from 'vitest';
import {
  readSourceFixture,
  startReplayServer,
  type ReplayServer,
} from '../../../test/fixtures/sources/replayServer.js';
import { HelixError } from '../../domain/errors.js';
import type { Capability, CapabilityContext } from '../capability.js';
import { arxivIdFromLocator } from './arxivIds.js';
import { scholarlyCapabilities } from './scholarlyCapabilities.js';

const context = (): CapabilityContext => ({
  runId: 'run_test',
  turn: 5,
  signal: new AbortController().signal,
  now: () => Date.parse('2025-02-03T04:05:06.000Z'),
});

const servers: ReplayServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** An arXiv API stand-in that knows one paper and answers anything else with arXiv's error feed. */
const arxivServer = async () => {
  const server = await startReplayServer((request, response) => {
    const known = request.query.get('id_list')?.startsWith('2303.08774') === true;
    response.writeHead(200, { 'content-type': 'application/atom+xml; charset=utf-8' });
    response.end(readSourceFixture(known ? 'arxiv/id-list-2303.08774.atom.xml' : 'arxiv/error-bad-id.atom.xml'));
  });
  servers.push(server);
  return server;
};

const fetchFullText = (arxivUrl: string): Capability => {
  const found = scholarlyCapabilities({ arxivUrl }).find((c) => c.id === 'scholarly.fetch_full_text');
  if (found === undefined) throw new Error('not configured');
  return found;
};

const run = (capability: Capability, locator: string) =>
  capability.execute(capability.input.parse({ locator }), context());

describe('scholarly.fetch_full_text', () => {
  it('reads the paper from the configured arXiv API, whatever host the locator names', async () => {
    const server = await arxivServer();
    const result = await run(fetchFullText(`${server.origin}/api`), 'https://arxiv.org/abs/2303.08774v6');

    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.pathname).toBe('/api/query');
    expect(Object.fromEntries(server.requests[0]?.query ?? [])).toEqual({ id_list: '2303.08774v6', max_results: '1' });
    expect(server.requests[0]?.headers.authorization).toBeUndefined();

    expect(result.hits).toEqual([]);
    expect(result.artifacts).toHaveLength(1);
    expect(result.artifacts[0]).toMatchObject({
      kind: 'observation',
      family: 'scholarly_evidence',
      capabilityId: 'scholarly.fetch_full_text',
      title: 'GPT-4 Technical Report',
      provenance: { source_id: 'arxiv', locator: 'https://arxiv.org/abs/2303.08774v6', turn: 5 },
    });
    expect(result.artifacts[0]?.excerpt).toContain('around the top 10% of test takers.');
  });

  it('accepts the arXiv DOI and arXiv:<id> forms of the same paper', async () => {
    const server = await arxivServer();
    const capability = fetchFullText(`${server.origin}/api`);
    const viaDoi = await run(capability, 'https://doi.org/10.48550/arXiv.2303.08774');
    const viaPrefix = await run(capability, 'arXiv:2303.08774');
    expect(viaDoi.artifacts[0]?.ref).toBe(viaPrefix.artifacts[0]?.ref);
    expect(server.requests.map((r) => r.query.get('id_list'))).toEqual(['2303.08774', '2303.08774']);
  });

  it.each([
    'https://evil.example/abs/2303.08774',
    'https://arxiv.org.evil.example/abs/2303.08774',
    'https://arxiv.org/pdf/2303.08774',
    'https://doi.org/10.1038/s41586-021-03819-2',
    'file:///etc/passwd',
    'http://169.254.169.254/latest/meta-data/',
    '2303.08774/../../etc',
  ])('refuses %s without any request', async (locator) => {
    const server = await arxivServer();
    const error = await run(fetchFullText(`${server.origin}/api`), locator).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HelixError);
    expect(error).toMatchObject({ code: 'invalid_request', details: { issues: [{ path: 'locator' }] } });
    expect(server.requests).toHaveLength(0);
  });

  it('reports an id arXiv does not know as an invalid request', async () => {
    const server = await arxivServer();
    await expect(run(fetchFullText(`${server.origin}/api`), 'arXiv:9999.99999')).rejects.toMatchObject({
      code: 'invalid_request',
    });
  });
});

describe('arxivIdFromLocator', () => {
  it('knows both id schemes and the arXiv hosts', () => {
    expect(arxivIdFromLocator('http://export.arxiv.org/abs/hep-ex/0307015v1', 'x')).toBe('hep-ex/0307015v1');
    expect(arxivIdFromLocator('https://www.arxiv.org/abs/math.GT/0309136', 'x')).toBe('math.GT/0309136');
    expect(arxivIdFromLocator('http://127.0.0.1:8080/abs/1706.03762', '127.0.0.1:8080')).toBe('1706.03762');
    expect(arxivIdFromLocator('http://127.0.0.1:8080/abs/1706.03762', '127.0.0.1:9090')).toBeUndefined();
    expect(arxivIdFromLocator('https://arxiv.org/abs/1706.03762?download=1', 'x')).toBe('1706.03762');
  });
});
