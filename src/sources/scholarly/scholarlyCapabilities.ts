import type { Capability } from '../capability.js';
import { DEFAULT_SOURCE_TIMEOUT_MS } from '../web/boundedFetch.js';
import { parseEndpointUrl, positiveIntegerSetting } from '../web/sourceConfig.js';
import { extractNumbersCapability } from './extractNumbers.js';
import { fetchFullTextCapability } from './fetchFullText.js';
import { lookupPapersCapability, type ScholarlyEndpoints } from './lookupPapers.js';

export interface ScholarlyConfig {
  /** OpenAlex API base, e.g. `https://api.openalex.org`. */
  readonly openAlexUrl?: string;
  /** Crossref REST API base, e.g. `https://api.crossref.org`. */
  readonly crossrefUrl?: string;
  /** arXiv API base, e.g. `https://export.arxiv.org/api`. */
  readonly arxivUrl?: string;
  readonly timeoutMs?: number;
  /** Contact address sent to OpenAlex and Crossref, which route such requests to their polite pools. */
  readonly mailto?: string;
}

/**
 * The scholarly_research capabilities the configuration can serve: lookup and number extraction
 * once at least one bibliographic source is configured, full text only with arXiv. With no source
 * the scope stays off — number extraction alone would make it admissible with nothing to look up.
 * Validates configuration only; does no I/O.
 */
export const scholarlyCapabilities = (config: ScholarlyConfig): Capability[] => {
  const endpoints: ScholarlyEndpoints = {
    ...(config.openAlexUrl === undefined ? {} : { openalex: parseEndpointUrl(config.openAlexUrl, 'openAlexUrl') }),
    ...(config.crossrefUrl === undefined ? {} : { crossref: parseEndpointUrl(config.crossrefUrl, 'crossrefUrl') }),
    ...(config.arxivUrl === undefined ? {} : { arxiv: parseEndpointUrl(config.arxivUrl, 'arxivUrl') }),
  };
  const timeoutMs = positiveIntegerSetting(config.timeoutMs, DEFAULT_SOURCE_TIMEOUT_MS, 'timeoutMs');
  if (config.mailto !== undefined && !/^[^\s@&=?#]+@[^\s@&=?#]+$/.test(config.mailto)) {
    throw new TypeError('mailto must be an e-mail address.');
  }
  if (Object.keys(endpoints).length === 0) return [];
  return [
    lookupPapersCapability({ endpoints, timeoutMs, mailto: config.mailto }),
    ...(endpoints.arxiv === undefined ? [] : [fetchFullTextCapability({ arxivUrl: endpoints.arxiv, timeoutMs })]),
    extractNumbersCapability(),
  ];
};
