import { z } from 'zod';
import { HelixError } from '../../domain/errors.js';
import { makeArtifact } from '../artifact.js';
import type { Capability } from '../capability.js';
import { fetchArxivEntry } from './arxiv.js';
import { arxivAbsUrl, arxivIdFromLocator } from './arxivIds.js';
import { SCHOLARLY_FAMILY } from './lookupPapers.js';

export const FETCH_FULL_TEXT_ID = 'scholarly.fetch_full_text';

export const fetchFullTextInput = z.object({ locator: z.string().trim().min(1).max(2048) });
export type FetchFullTextInput = z.infer<typeof fetchFullTextInput>;

export interface FetchFullTextOptions {
  readonly arxivUrl: URL;
  readonly timeoutMs: number;
}

const refuse = (message: string): HelixError =>
  new HelixError('invalid_request', { issues: [{ path: 'locator', message }] });

/**
 * Reads one arXiv paper's record (title and abstract) from the configured arXiv API.
 *
 * The locator only names the paper: it is reduced to an arXiv id and the request always goes to
 * the configured endpoint, never to the locator's host, so a caller cannot point this capability
 * at an arbitrary URL. PDFs are deliberately not fetched: they live on another host than the API
 * and would need a PDF extractor in the request path; the abstract is what the API serves.
 */
export const fetchFullTextCapability = (options: FetchFullTextOptions): Capability<FetchFullTextInput> => ({
  id: FETCH_FULL_TEXT_ID,
  scope: 'scholarly_research',
  family: SCHOLARLY_FAMILY,
  kind: 'read',
  description:
    'Read the title and abstract of an arXiv paper, given its arXiv abs URL, arXiv DOI or arXiv:<id> (as returned by scholarly.lookup_papers).',
  input: fetchFullTextInput,
  async execute(input, context) {
    const id = arxivIdFromLocator(input.locator, options.arxivUrl.host);
    if (id === undefined) throw refuse('locator must be an arXiv abs URL, an arXiv DOI or arXiv:<id>');
    const entry = await fetchArxivEntry(options.arxivUrl, id, {
      capabilityId: FETCH_FULL_TEXT_ID,
      timeoutMs: options.timeoutMs,
      signal: context.signal,
    });
    if (entry === undefined) throw refuse('arXiv has no paper with this identifier');
    const artifact = makeArtifact({
      kind: 'observation',
      family: SCHOLARLY_FAMILY,
      capabilityId: FETCH_FULL_TEXT_ID,
      content: `${entry.title}\n\n${entry.summary}`,
      title: entry.title,
      provenance: {
        source_id: 'arxiv',
        locator: arxivAbsUrl(entry.id),
        retrieved_at: new Date(context.now()).toISOString(),
        turn: context.turn,
      },
    });
    return { artifacts: [artifact], hits: [] };
  },
});
