import { z } from 'zod';
import type { Store } from '../../store/port.js';
import { makeArtifact } from '../artifact.js';
import { hybridSearch, type HybridRanking } from './hybridSearch.js';
import type { Capability } from '../capability.js';
import { rankedSearch } from './rankedSearch.js';

const FAMILY = 'research_library_evidence';
const MAX_READ_PASSAGES = 20;

const SearchInput = z.strictObject({
  query: z.string().trim().min(1).max(500),
  limit: z.number().int().min(1).max(20).default(8),
});

const ReadInput = z.strictObject({
  document_id: z.string().regex(/^doc_[0-9a-f]{24}$/),
  from_passage: z.number().int().min(0).default(0),
  to_passage: z.number().int().min(0).optional(),
});

const titleOf = (title: string, heading: string | null): string =>
  heading === null || heading === title ? title : `${title} — ${heading}`;

/** `research-library.search`: ranked passages as evidence, each citing its document and span. */
const search = (store: Store, hybrid: HybridRanking | undefined): Capability<z.output<typeof SearchInput>> => ({
  id: 'research-library.search',
  scope: 'research_library',
  family: FAMILY,
  kind: 'search',
  description: 'Ranked full-text search over the operator-curated research library; returns passages with provenance.',
  input: SearchInput,
  async termStatistics(words) {
    const [units, frequencies] = await Promise.all([
      store.read.library.countPassages(),
      store.read.library.termFrequencies(words),
    ]);
    return { units, frequencies };
  },
  async execute(input, context) {
    const lexical = (limit: number) => rankedSearch(store, input.query, limit);
    const hits =
      hybrid === undefined
        ? await lexical(input.limit)
        : await hybridSearch(store, hybrid, input.query, input.limit, lexical, context.signal);
    const retrievedAt = new Date(context.now()).toISOString();
    const found = hits.map((hit) => {
      const artifact = makeArtifact({
        kind: 'evidence',
        family: FAMILY,
        capabilityId: 'research-library.search',
        content: hit.passage.text,
        title: titleOf(hit.document.title, hit.passage.heading),
        provenance: {
          source_id: hit.document.docId,
          locator: hit.document.displayPath,
          span: { start: hit.passage.start, end: hit.passage.end },
          retrieved_at: retrievedAt,
          turn: context.turn,
        },
      });
      const ranked = {
        ref: artifact.ref,
        title: titleOf(hit.document.title, hit.passage.heading),
        text: hit.passage.text,
        score: hit.score,
        documentId: hit.document.docId,
        ...(hit.passage.heading === null ? {} : { heading: hit.passage.heading }),
      };
      return { artifact, ranked };
    });
    return { artifacts: found.map((f) => f.artifact), hits: found.map((f) => f.ranked) };
  },
});

/** `research-library.read_document`: a bounded run of consecutive passages as one observation. */
const readDocument = (store: Store): Capability<z.output<typeof ReadInput>> => ({
  id: 'research-library.read_document',
  scope: 'research_library',
  family: FAMILY,
  kind: 'read',
  description: `Read up to ${MAX_READ_PASSAGES} consecutive passages of one library document by its document_id.`,
  input: ReadInput,
  async execute(input, context) {
    const document = await store.read.library.getDocument(input.document_id);
    if (document === undefined) return { artifacts: [], hits: [] };
    const last = Math.min(
      input.to_passage ?? input.from_passage + MAX_READ_PASSAGES - 1,
      input.from_passage + MAX_READ_PASSAGES - 1,
    );
    const passages = await store.read.library.passages(document.docId, input.from_passage, last);
    const [first] = passages;
    const final = passages.at(-1);
    if (first === undefined || final === undefined) return { artifacts: [], hits: [] };
    const artifact = makeArtifact({
      kind: 'observation',
      family: FAMILY,
      capabilityId: 'research-library.read_document',
      content: passages.map((p) => p.text).join('\n\n'),
      title: document.title,
      provenance: {
        source_id: document.docId,
        locator: document.displayPath,
        span: { start: first.start, end: final.end },
        retrieved_at: new Date(context.now()).toISOString(),
        turn: context.turn,
      },
    });
    return { artifacts: [artifact], hits: [] };
  },
});

/** With `hybrid` (an embeddings endpoint is configured) search fuses lexical and semantic rankings. */
export const libraryCapabilities = (store: Store, hybrid?: HybridRanking): Capability[] =>
  [search(store, hybrid), readDocument(store)] as Capability[];
