import { z } from 'zod';
import { boundedExcerpt, makeArtifact } from '../artifact.js';
import type { Capability, CapabilityHit } from '../capability.js';
import type { TurnArtifact } from '../../domain/turn.js';
import { GitignoreRules } from './gitignoreRules.js';
import { REPOSITORY_FAMILY, type RepositoryLimits } from './repositoryPolicy.js';
import { realRoot } from './repositoryRoots.js';
import { bestWindows, type LineWindow, queryTerms } from './searchScoring.js';
import { readTextFile } from './textFile.js';
import { walkRepository } from './walkRepository.js';

export const REPOSITORY_SEARCH_ID = 'repository.search';

export const repositorySearchInput = z.object({
  query: z.string().trim().min(1).max(500),
  limit: z.number().int().min(1).max(20).default(8),
});
export type RepositorySearchInput = z.infer<typeof repositorySearchInput>;

export interface RepositorySearchOptions {
  readonly roots: readonly string[];
  readonly limits: RepositoryLimits;
}

const WINDOW = { radius: 3, maxWindows: 2 } as const;
/** Minified bundles put a whole file on one line; a window shows its start, not all of it. */
const MAX_LINE_CHARS = 1_000;

interface Found {
  readonly rootIndex: number;
  readonly relativePath: string;
  readonly window: LineWindow;
  readonly text: string;
}

const windowText = (lines: readonly string[], window: LineWindow): string =>
  lines
    .slice(window.start - 1, window.end)
    .map((line) => (line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS - 1)}…` : line))
    .join('\n');

const byRelevance = (a: Found, b: Found): number =>
  b.window.score - a.window.score ||
  a.rootIndex - b.rootIndex ||
  (a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0) ||
  a.window.start - b.window.start;

/**
 * Scans the files of every root (at most `maxFilesScanned` in all) and keeps the best line
 * windows. Only the current leaders are held in memory, so a large tree costs time, not space.
 */
const scanRoots = async (
  options: RepositorySearchOptions,
  terms: readonly string[],
  limit: number,
  signal: AbortSignal,
): Promise<Found[]> => {
  let found: Found[] = [];
  let scanned = 0;
  for (const [rootIndex, root] of options.roots.entries()) {
    const real = await realRoot(root, REPOSITORY_SEARCH_ID);
    for await (const file of walkRepository(real, new GitignoreRules(real), signal)) {
      signal.throwIfAborted();
      if (scanned >= options.limits.maxFilesScanned) return found;
      scanned += 1;
      const read = await readTextFile(file.absolute, options.limits.maxFileBytes);
      if (read.kind !== 'text') continue;
      for (const window of bestWindows(read.lines, terms, file.relativePath, WINDOW)) {
        found.push({ rootIndex, relativePath: file.relativePath, window, text: windowText(read.lines, window) });
      }
      if (found.length > 4 * limit) found = found.sort(byRelevance).slice(0, limit);
    }
  }
  return found;
};

export const searchRepositoryCapability = (options: RepositorySearchOptions): Capability<RepositorySearchInput> => ({
  id: REPOSITORY_SEARCH_ID,
  scope: 'repository_evidence',
  family: REPOSITORY_FAMILY,
  kind: 'search',
  description:
    'Search the configured repositories (text files not excluded by .gitignore) for lines matching the query words; returns line windows.',
  input: repositorySearchInput,
  async execute(input, context) {
    context.signal.throwIfAborted();
    const terms = queryTerms(input.query);
    // A query of only short words or stopwords would match nearly every line; it finds nothing.
    if (terms.length === 0) return { artifacts: [], hits: [] };
    const found = (await scanRoots(options, terms, input.limit, context.signal))
      .sort(byRelevance)
      .slice(0, input.limit);
    const retrievedAt = new Date(context.now()).toISOString();
    const artifacts: TurnArtifact[] = [];
    const hits: CapabilityHit[] = [];
    for (const { rootIndex, relativePath, window, text } of found) {
      const artifact = makeArtifact({
        kind: 'evidence',
        family: REPOSITORY_FAMILY,
        capabilityId: REPOSITORY_SEARCH_ID,
        content: text,
        title: relativePath,
        provenance: {
          source_id: `repository:${rootIndex}`,
          locator: relativePath,
          span: { start: window.start, end: window.end },
          retrieved_at: retrievedAt,
          turn: context.turn,
        },
      });
      artifacts.push(artifact);
      hits.push({
        ref: artifact.ref,
        title: relativePath,
        text: boundedExcerpt(text),
        score: window.score,
        documentId: `repository:${relativePath}`,
      });
    }
    return { artifacts, hits };
  },
});
