/*
 * A redirect stub is a page a generator leaves where another page used to be: a
 * `<meta http-equiv="refresh" content="0; url=…">` and a line such as "The node you are looking
 * for is at Bugs" (makeinfo writes one for every node and anchor of a split manual; the diffutils
 * manual has 89 of them beside 23 real pages). Indexed, each would be a passage that answers
 * nothing and a document that slows the ingest. A page is a stub when its head redirects to a URL
 * and its text, headings and all, is at most MAX_STUB_TEXT_CHARS long: the stubs of the Texinfo
 * manuals in the evaluation corpora read 38 to 62 characters, a page of content far more.
 */
export const MAX_STUB_TEXT_CHARS = 200;

// `content` is a delay, then the URL: "0; url=Projects.html#Bugs", "5;URL='next.html'" (HTML §4.2.5.3).
const REFRESH_CONTENT = /^\s*\d*(?:\.\d*)?\s*[;,]\s*(?:url\s*=\s*)?(?!url\s*=)(["']?)([^"'\s][^"']*)\1/i;

/** The URL a `<meta http-equiv="refresh">` sends the reader to; null for a refresh that only reloads the page. */
export const refreshTarget = (attributes: Readonly<Record<string, string>>): string | null => {
  if (attributes['http-equiv']?.trim().toLowerCase() !== 'refresh') return null;
  const target = REFRESH_CONTENT.exec(attributes.content ?? '')?.[2]?.trim();
  return target === undefined || target === '' ? null : target;
};

/** The redirect's target when the page is a stub: it redirects, and its text is next to nothing. */
export const stubTarget = (redirect: string | null, text: string): string | null =>
  redirect !== null && text.length <= MAX_STUB_TEXT_CHARS ? redirect : null;
