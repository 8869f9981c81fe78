import { z } from 'zod';
import { fetchBoundedJson } from '../web/boundedFetch.js';
import { endpointPath } from '../web/sourceConfig.js';
import { SourceUnavailableError } from '../web/sourceUnavailableError.js';
import { arxivIdFromDoi, normalizeDoi } from './arxivIds.js';
import type { ScholarlyQuery } from './scholarlyQuery.js';
import { doiUrl, type ScholarlyRecord } from './scholarlyRecord.js';

const openAlexWork = z.object({
  id: z.string(),
  display_name: z.string().nullish(),
  title: z.string().nullish(),
  publication_year: z.number().int().nullish(),
  doi: z.string().nullish(),
  abstract_inverted_index: z.record(z.string(), z.array(z.number().int().nonnegative())).nullish(),
});

const openAlexEnvelope = z.object({ results: z.array(z.unknown()) });

/** No abstract has this many words; an index claiming more is not an abstract. */
const MAX_ABSTRACT_WORDS = 5_000;

/**
 * OpenAlex ships abstracts as an inverted index (word → positions) for licensing reasons; this
 * puts the words back in order. Positions are sorted, not used as array indices, so a position
 * like 10^9 cannot allocate a huge array.
 */
export const rebuildAbstract = (index: Readonly<Record<string, readonly number[]>>): string => {
  const placed: [number, string][] = [];
  for (const [word, positions] of Object.entries(index)) {
    for (const position of positions) {
      if (placed.length >= MAX_ABSTRACT_WORDS) break;
      placed.push([position, word]);
    }
  }
  return placed
    .sort((a, b) => a[0] - b[0])
    .map(([, word]) => word)
    .join(' ');
};

const toRecord = (work: z.infer<typeof openAlexWork>): ScholarlyRecord | undefined => {
  const title = (work.display_name ?? work.title ?? '').trim();
  if (title === '') return undefined;
  const doi = work.doi ? normalizeDoi(work.doi) : undefined;
  return {
    source: 'openalex',
    title,
    abstract: work.abstract_inverted_index ? rebuildAbstract(work.abstract_inverted_index) : '',
    year: work.publication_year ?? undefined,
    doi,
    arxivId: doi === undefined ? undefined : arxivIdFromDoi(doi),
    locator: doi === undefined ? work.id : doiUrl(doi),
  };
};

/** `GET {base}/works?search=…&per-page=…` (OpenAlex API, "Search works"). */
export const searchOpenAlex = async (base: URL, query: ScholarlyQuery): Promise<ScholarlyRecord[]> => {
  const url = endpointPath(base, '/works');
  url.searchParams.set('search', query.text);
  url.searchParams.set('per-page', String(query.limit));
  // The "polite pool": OpenAlex routes requests that name a contact address to faster servers.
  if (query.mailto !== undefined) url.searchParams.set('mailto', query.mailto);
  const body = await fetchBoundedJson({ ...query.request, url });
  const envelope = openAlexEnvelope.safeParse(body);
  if (!envelope.success) throw new SourceUnavailableError(query.request.capabilityId, 'malformed_response');
  return envelope.data.results.flatMap((raw) => {
    const work = openAlexWork.safeParse(raw);
    const record = work.success ? toRecord(work.data) : undefined;
    return record === undefined ? [] : [record];
  });
};
