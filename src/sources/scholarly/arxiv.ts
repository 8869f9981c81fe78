import { fetchBoundedText } from '../web/boundedFetch.js';
import { endpointPath } from '../web/sourceConfig.js';
import { SourceUnavailableError } from '../web/sourceUnavailableError.js';
import { type ArxivEntry, parseArxivFeed } from './arxivAtom.js';
import { arxivAbsUrl, normalizeDoi, unversionedArxivId } from './arxivIds.js';
import type { ScholarlyQuery } from './scholarlyQuery.js';
import type { ScholarlyRecord } from './scholarlyRecord.js';

export const arxivEntryRecord = (entry: ArxivEntry): ScholarlyRecord => {
  const year = entry.published === undefined ? Number.NaN : Number.parseInt(entry.published.slice(0, 4), 10);
  return {
    source: 'arxiv',
    title: entry.title,
    abstract: entry.summary,
    year: Number.isInteger(year) ? year : undefined,
    doi: entry.doi === undefined || entry.doi === '' ? undefined : normalizeDoi(entry.doi),
    arxivId: entry.id,
    locator: arxivAbsUrl(entry.id),
  };
};

const fetchFeed = async (url: URL, request: ScholarlyQuery['request']): Promise<ArxivEntry[]> => {
  const xml = await fetchBoundedText({ ...request, url, expect: 'xml' });
  const entries = parseArxivFeed(xml);
  if (entries === undefined) throw new SourceUnavailableError(request.capabilityId, 'malformed_response');
  return entries;
};

/** `GET {base}/query?search_query=all:…&max_results=…` (arXiv API user manual §3.1). */
export const searchArxiv = async (base: URL, query: ScholarlyQuery): Promise<ScholarlyRecord[]> => {
  const url = endpointPath(base, '/query');
  url.searchParams.set('search_query', `all:${query.text}`);
  url.searchParams.set('max_results', String(query.limit));
  return (await fetchFeed(url, query.request)).filter((entry) => entry.title !== '').map(arxivEntryRecord);
};

/** `GET {base}/query?id_list=…` for one paper; undefined if arXiv does not know the id. */
export const fetchArxivEntry = async (
  base: URL,
  id: string,
  request: ScholarlyQuery['request'],
): Promise<ArxivEntry | undefined> => {
  const url = endpointPath(base, '/query');
  url.searchParams.set('id_list', id);
  url.searchParams.set('max_results', '1');
  // Only the paper asked for counts, whatever else the feed carries.
  const wanted = unversionedArxivId(id).toLowerCase();
  return (await fetchFeed(url, request)).find((entry) => unversionedArxivId(entry.id).toLowerCase() === wanted);
};
