/**
 * The one check every outbound URL a person configures passes first (a source endpoint, a model
 * provider's base URL, an OTLP endpoint): an absolute http or https URL that carries no
 * credentials. Credentials in a URL would be sent on every request and echoed by any error that
 * printed it. Where a URL someone else chose may then connect is the rest of the outbound policy:
 * src/net/baseUrlPolicy.ts (hosts, https) and src/net/addressPolicy.ts (address ranges).
 */
export type HttpUrlCheck =
  | { readonly ok: true; readonly url: URL }
  | { readonly ok: false; readonly problem: 'not_a_url' | 'not_http' | 'credentials' };

export const HTTP_URL_PROBLEMS = {
  not_a_url: 'is not an absolute URL',
  not_http: 'must be an http or https URL',
  credentials: 'must not contain credentials',
} as const;

export const checkHttpUrl = (raw: string): HttpUrlCheck => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, problem: 'not_a_url' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, problem: 'not_http' };
  if (url.username !== '' || url.password !== '') return { ok: false, problem: 'credentials' };
  return { ok: true, url };
};
