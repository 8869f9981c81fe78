import type { Capability } from '../capability.js';
import { DEFAULT_SOURCE_TIMEOUT_MS } from './boundedFetch.js';
import { parseEndpointUrl, positiveIntegerSetting } from './sourceConfig.js';
import { searchWebCapability } from './searchWeb.js';

export interface PublicWebConfig {
  /** A SearXNG-compatible `/search` endpoint answering `?q=…&format=json`. */
  readonly searchUrl: string;
  readonly timeoutMs?: number;
  /** Upper bound on results per call, whatever limit the caller asks for. */
  readonly maxResults?: number;
}

const MAX_RESULTS_CEILING = 20;

/** The public_web capabilities. Validates configuration only; does no I/O. */
export const publicWebCapabilities = (config: PublicWebConfig): Capability[] => [
  searchWebCapability({
    searchUrl: parseEndpointUrl(config.searchUrl, 'searchUrl'),
    timeoutMs: positiveIntegerSetting(config.timeoutMs, DEFAULT_SOURCE_TIMEOUT_MS, 'timeoutMs'),
    maxResults: Math.min(
      positiveIntegerSetting(config.maxResults, MAX_RESULTS_CEILING, 'maxResults'),
      MAX_RESULTS_CEILING,
    ),
  }),
];
