import { z } from 'zod';
import { fetchBoundedJson } from '../web/boundedFetch.js';
import { endpointPath } from '../web/sourceConfig.js';
import { SourceUnavailableError } from '../web/sourceUnavailableError.js';
import { arxivIdFromDoi, normalizeDoi } from './arxivIds.js';
import type { ScholarlyQuery } from './scholarlyQuery.js';
import { doiUrl, type ScholarlyRecord } from './scholarlyRecord.js';
import { xmlToPlainText } from './xmlText.js';

const crossrefItem = z.object({
  DOI: z.string().min(1),
  title: z.array(z.string()).nullish(),
  abstract: z.string().nullish(),
  // Crossref writes partial dates as [[2021]] and unknown ones as [[null]].
  issued: z.object({ 'date-parts': z.array(z.array(z.number().nullable())).nullish() }).nullish(),
});

const crossrefEnvelope = z.object({ message: z.object({ items: z.array(z.unknown()) }) });

/** Crossref abstracts are JATS XML, usually opening with a `<jats:title>Abstract</jats:title>`. */
export const jatsAbstractText = (jats: string): string => xmlToPlainText(jats).replace(/^abstract\b[\s:.]*/i, '');

const toRecord = (item: z.infer<typeof crossrefItem>): ScholarlyRecord | undefined => {
  const title = xmlToPlainText(item.title?.[0] ?? '');
  if (title === '') return undefined;
  const doi = normalizeDoi(item.DOI);
  const year = item.issued?.['date-parts']?.[0]?.[0];
  return {
    source: 'crossref',
    title,
    abstract: item.abstract ? jatsAbstractText(item.abstract) : '',
    year: typeof year === 'number' ? year : undefined,
    doi,
    arxivId: arxivIdFromDoi(doi),
    locator: doiUrl(doi),
  };
};

/** `GET {base}/works?query=…&rows=…` (Crossref REST API, "works" route). */
export const searchCrossref = async (base: URL, query: ScholarlyQuery): Promise<ScholarlyRecord[]> => {
  const url = endpointPath(base, '/works');
  url.searchParams.set('query', query.text);
  url.searchParams.set('rows', String(query.limit));
  // Crossref's "polite" pool, as for OpenAlex.
  if (query.mailto !== undefined) url.searchParams.set('mailto', query.mailto);
  const body = await fetchBoundedJson({ ...query.request, url });
  const envelope = crossrefEnvelope.safeParse(body);
  if (!envelope.success) throw new SourceUnavailableError(query.request.capabilityId, 'malformed_response');
  return envelope.data.message.items.flatMap((raw) => {
    const item = crossrefItem.safeParse(raw);
    const record = item.success ? toRecord(item.data) : undefined;
    return record === undefined ? [] : [record];
  });
};
