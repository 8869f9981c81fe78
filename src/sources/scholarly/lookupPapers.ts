import { z } from 'zod';
import { boundedExcerpt, makeArtifact } from '../artifact.js';
import type { Capability } from '../capability.js';
import { SourceUnavailableError } from '../web/sourceUnavailableError.js';
import { searchArxiv } from './arxiv.js';
import { searchCrossref } from './crossref.js';
import { mergeRecords } from './mergeRecords.js';
import { searchOpenAlex } from './openAlex.js';
import type { ScholarlyQuery } from './scholarlyQuery.js';
import type { ScholarlyRecord, ScholarlySource } from './scholarlyRecord.js';

export const LOOKUP_PAPERS_ID = 'scholarly.lookup_papers';
export const SCHOLARLY_FAMILY = 'scholarly_evidence';

export const lookupPapersInput = z.object({
  query: z.string().trim().min(1).max(500),
  limit: z.number().int().min(1).max(20).default(8),
});
export type LookupPapersInput = z.infer<typeof lookupPapersInput>;

export type ScholarlyEndpoints = { readonly [S in ScholarlySource]?: URL };

export interface LookupPapersOptions {
  readonly endpoints: ScholarlyEndpoints;
  readonly timeoutMs: number;
  readonly mailto: string | undefined;
}

const CLIENTS: { readonly [S in ScholarlySource]: (base: URL, query: ScholarlyQuery) => Promise<ScholarlyRecord[]> } = {
  openalex: searchOpenAlex,
  crossref: searchCrossref,
  arxiv: searchArxiv,
};

const recordContent = (record: ScholarlyRecord): string =>
  record.abstract === '' ? record.title : `${record.title}\n\n${record.abstract}`;

/**
 * Asks every configured bibliographic source at once and merges their answers. One source failing
 * does not fail the lookup while another answered; only when all fail is the source unavailable.
 */
const searchAll = async (options: LookupPapersOptions, query: ScholarlyQuery): Promise<ScholarlyRecord[][]> => {
  const configured = Object.entries(options.endpoints).filter(
    (entry): entry is [ScholarlySource, URL] => entry[1] !== undefined,
  );
  const settled = await Promise.allSettled(configured.map(([source, base]) => CLIENTS[source](base, query)));
  query.request.signal.throwIfAborted();
  const lists: ScholarlyRecord[][] = [];
  let failure: unknown;
  for (const outcome of settled) {
    if (outcome.status === 'fulfilled') lists.push(outcome.value);
    else if (outcome.reason instanceof SourceUnavailableError) failure ??= outcome.reason;
    else throw outcome.reason;
  }
  if (lists.length === 0) throw failure ?? new SourceUnavailableError(LOOKUP_PAPERS_ID, 'network');
  return lists;
};

export const lookupPapersCapability = (options: LookupPapersOptions): Capability<LookupPapersInput> => ({
  id: LOOKUP_PAPERS_ID,
  scope: 'scholarly_research',
  family: SCHOLARLY_FAMILY,
  kind: 'search',
  description:
    'Look up papers (title and abstract) in the configured bibliographic sources: OpenAlex, Crossref, arXiv.',
  input: lookupPapersInput,
  async execute(input, context) {
    const lists = await searchAll(options, {
      text: input.query,
      limit: input.limit,
      mailto: options.mailto,
      request: { capabilityId: LOOKUP_PAPERS_ID, timeoutMs: options.timeoutMs, signal: context.signal },
    });
    const retrievedAt = new Date(context.now()).toISOString();
    const merged = mergeRecords(lists).slice(0, input.limit);
    const found = merged.map(({ record, documentId, score }) => {
      const artifact = makeArtifact({
        kind: 'evidence',
        family: SCHOLARLY_FAMILY,
        capabilityId: LOOKUP_PAPERS_ID,
        content: recordContent(record),
        title: record.title,
        provenance: {
          source_id: record.source,
          locator: record.locator,
          retrieved_at: retrievedAt,
          turn: context.turn,
        },
      });
      const hit = {
        ref: artifact.ref,
        title: record.title,
        text: boundedExcerpt(record.abstract === '' ? record.title : record.abstract),
        score,
        documentId,
      };
      return { artifact, hit };
    });
    const artifacts = found.map(({ artifact }) => artifact);
    const hits = found.map(({ hit }) => hit);
    return { artifacts, hits };
  },
});
