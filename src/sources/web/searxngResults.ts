import { z } from 'zod';

/** One SearXNG result as served by `/search?format=json`; fields beyond these are ignored. */
const searxngResult = z.object({
  url: z.string().max(4096),
  title: z.string().nullish(),
  content: z.string().nullish(),
  engine: z.string().nullish(),
  engines: z.array(z.string()).nullish(),
  score: z.number().nullish(),
  publishedDate: z.string().nullish(),
});

const searxngEnvelope = z.object({ results: z.array(z.unknown()) });

export interface WebResult {
  /** The result URL as the engine gave it (fragment kept: it is where the snippet came from). */
  readonly url: URL;
  /** The document identity: the URL without its fragment, used to drop duplicates. */
  readonly documentUrl: string;
  readonly title: string;
  readonly snippet: string;
  readonly engines: readonly string[];
  readonly score: number | undefined;
  readonly publishedDate: string | undefined;
}

const toHttpUrl = (raw: string): URL | undefined => {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Maps a SearXNG JSON body to results in engine order, or undefined if it is not a SearXNG
 * answer at all. A single malformed or non-http(s) result is dropped rather than failing the
 * search: engines behind SearXNG disagree on which fields they fill.
 */
export const parseSearxngResults = (body: unknown): WebResult[] | undefined => {
  const envelope = searxngEnvelope.safeParse(body);
  if (!envelope.success) return undefined;
  const seen = new Set<string>();
  const results: WebResult[] = [];
  for (const raw of envelope.data.results) {
    const parsed = searxngResult.safeParse(raw);
    if (!parsed.success) continue;
    const url = toHttpUrl(parsed.data.url);
    if (url === undefined) continue;
    // The fragment names a place in the page, not a different document.
    const documentUrl = url.href.slice(0, url.href.length - url.hash.length);
    if (seen.has(documentUrl)) continue;
    seen.add(documentUrl);
    const engines = parsed.data.engines ?? (parsed.data.engine ? [parsed.data.engine] : []);
    results.push({
      url,
      documentUrl,
      title: (parsed.data.title ?? '').trim() || url.hostname,
      snippet: (parsed.data.content ?? '').trim(),
      engines,
      score: parsed.data.score ?? undefined,
      publishedDate: parsed.data.publishedDate ?? undefined,
    });
  }
  return results;
};
