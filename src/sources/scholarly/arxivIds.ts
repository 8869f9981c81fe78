/**
 * arXiv identifiers: the 2007+ scheme (`2303.08774`, optionally `v2`) and the older
 * archive/number scheme (`hep-ex/0307015`).
 */
const ARXIV_ID = String.raw`(?:\d{4}\.\d{4,5}|[a-z][a-z.-]*(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?`;
const EXACT_ID = new RegExp(`^${ARXIV_ID}$`);
const ABS_PATH = new RegExp(`^/abs/(${ARXIV_ID})/?$`);
const ARXIV_DOI = new RegExp(`^10\\.48550/arxiv\\.(${ARXIV_ID})$`, 'i');
const PREFIXED = new RegExp(`^arxiv:(${ARXIV_ID})$`, 'i');

export const isArxivId = (value: string): boolean => EXACT_ID.test(value);

/** The version-free identity, so v1 and v6 of one paper are the same document. */
export const unversionedArxivId = (id: string): string => id.replace(/v\d+$/, '');

export const arxivAbsUrl = (id: string): string => `https://arxiv.org/abs/${id}`;

/** DOIs are case-insensitive (DOI Handbook §2.4); compare them lower-cased and without a resolver. */
export const normalizeDoi = (raw: string): string =>
  raw
    .trim()
    .replace(/^https?:\/\/(?:dx\.)?doi\.org\//i, '')
    .replace(/^doi:/i, '')
    .toLowerCase();

/** arXiv registers DataCite DOIs 10.48550/arXiv.<id> for every paper; OpenAlex reports those. */
export const arxivIdFromDoi = (doi: string): string | undefined => {
  const match = ARXIV_DOI.exec(normalizeDoi(doi));
  return match?.[1];
};

const ARXIV_HOSTS = new Set(['arxiv.org', 'www.arxiv.org', 'export.arxiv.org']);

/**
 * The arXiv id a locator names: an abs URL on arXiv (or on the configured arXiv host), an arXiv
 * DOI or `arXiv:<id>`. Anything else is undefined — the locator is never fetched itself.
 */
export const arxivIdFromLocator = (locator: string, configuredHost: string): string | undefined => {
  const trimmed = locator.trim();
  const prefixed = PREFIXED.exec(trimmed);
  if (prefixed) return prefixed[1];
  const fromDoi = arxivIdFromDoi(trimmed);
  if (fromDoi !== undefined) return fromDoi;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (!ARXIV_HOSTS.has(url.hostname) && url.host !== configuredHost) return undefined;
  return ABS_PATH.exec(url.pathname)?.[1];
};
