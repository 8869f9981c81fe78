import { arxivIdFromDoi, normalizeDoi, unversionedArxivId } from './arxivIds.js';

export const SCHOLARLY_SOURCES = ['openalex', 'crossref', 'arxiv'] as const;
export type ScholarlySource = (typeof SCHOLARLY_SOURCES)[number];

/** One paper as one bibliographic source describes it. */
export interface ScholarlyRecord {
  readonly source: ScholarlySource;
  readonly title: string;
  readonly abstract: string;
  readonly year: number | undefined;
  /** Normalized (lower-case, no resolver prefix). */
  readonly doi: string | undefined;
  /** Versioned where the source gives a version. */
  readonly arxivId: string | undefined;
  /** Where a reader finds the paper: a DOI URL, an arXiv abs URL, or the source's own URL. */
  readonly locator: string;
}

/**
 * The identities under which two records are the same paper. An arXiv DOI and an arXiv id name
 * the same key, so OpenAlex's `10.48550/arxiv.2303.08774` meets arXiv's `2303.08774v6`.
 */
export const recordKeys = (record: ScholarlyRecord): string[] => {
  const keys = new Set<string>();
  if (record.doi !== undefined) {
    const fromDoi = arxivIdFromDoi(record.doi);
    keys.add(
      fromDoi === undefined ? `doi:${normalizeDoi(record.doi)}` : `arxiv:${unversionedArxivId(fromDoi).toLowerCase()}`,
    );
  }
  if (record.arxivId !== undefined) keys.add(`arxiv:${unversionedArxivId(record.arxivId).toLowerCase()}`);
  if (keys.size === 0) keys.add(`${record.source}:${record.locator}`);
  return [...keys];
};

export const doiUrl = (doi: string): string => `https://doi.org/${doi}`;
