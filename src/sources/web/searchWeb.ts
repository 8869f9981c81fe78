import { z } from 'zod';
import { boundedExcerpt, makeArtifact } from '../artifact.js';
import type { Capability, CapabilityHit } from '../capability.js';
import type { TurnArtifact } from '../../domain/turn.js';
import { fetchBoundedJson } from './boundedFetch.js';
import { parseSearxngResults, type WebResult } from './searxngResults.js';
import { SourceUnavailableError } from './sourceUnavailableError.js';

export const SEARCH_WEB_ID = 'internet-search.search_web';
export const INTERNET_SEARCH_FAMILY = 'internet_search_evidence';

export const searchWebInput = z.object({
  query: z.string().trim().min(1).max(500),
  limit: z.number().int().min(1).max(20).default(8),
});
export type SearchWebInput = z.infer<typeof searchWebInput>;

export interface SearchWebOptions {
  readonly searchUrl: URL;
  readonly timeoutMs: number;
  readonly maxResults: number;
}

const resultContent = (result: WebResult): string =>
  [result.title, result.snippet, result.publishedDate === undefined ? '' : `Published: ${result.publishedDate}`]
    .filter((line) => line !== '')
    .join('\n');

export const searchWebCapability = (options: SearchWebOptions): Capability<SearchWebInput> => ({
  id: SEARCH_WEB_ID,
  scope: 'public_web',
  family: INTERNET_SEARCH_FAMILY,
  kind: 'search',
  description: 'Search the public web through the configured metasearch engine; returns result snippets.',
  input: searchWebInput,
  async execute(input, context) {
    const url = new URL(options.searchUrl.href);
    url.searchParams.set('q', input.query);
    url.searchParams.set('format', 'json');
    const body = await fetchBoundedJson({
      capabilityId: SEARCH_WEB_ID,
      url,
      timeoutMs: options.timeoutMs,
      signal: context.signal,
    });
    const results = parseSearxngResults(body);
    if (results === undefined) throw new SourceUnavailableError(SEARCH_WEB_ID, 'malformed_response');

    const retrievedAt = new Date(context.now()).toISOString();
    const artifacts: TurnArtifact[] = [];
    const hits: CapabilityHit[] = [];
    results.slice(0, Math.min(input.limit, options.maxResults)).forEach((result, rank) => {
      const artifact = makeArtifact({
        kind: 'evidence',
        family: INTERNET_SEARCH_FAMILY,
        capabilityId: SEARCH_WEB_ID,
        content: resultContent(result),
        title: result.title,
        provenance: {
          source_id: `web:${result.url.hostname}`,
          locator: result.url.href,
          retrieved_at: retrievedAt,
          turn: context.turn,
        },
      });
      artifacts.push(artifact);
      hits.push({
        ref: artifact.ref,
        title: result.title,
        text: boundedExcerpt(result.snippet),
        // SearXNG scores are only present when an engine ranked the result; fall back to rank.
        score: result.score ?? 1 / (rank + 1),
        documentId: result.documentUrl,
      });
    });
    return { artifacts, hits };
  },
});
