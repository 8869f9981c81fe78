import { HelixError } from '../../domain/errors.js';
import type { CapabilityResult } from '../../sources/capability.js';

const MAX_PASSAGE = 1_200;
const MAX_TITLE = 200;
const MAX_LOCATOR = 400;
const MAX_DIGEST = 16_000;

const clip = (text: string, limit: number): string => (text.length <= limit ? text : `${text.slice(0, limit - 1)}…`);
const clipOrNull = (text: string | undefined, limit: number): string | null =>
  text === undefined ? null : clip(text, limit);

/**
 * What the model sees of a capability call: for each result its ref (the only thing it may
 * cite), title, locator and a bounded passage. Every field a source supplies is clipped, so one
 * oversized title or locator cannot push every result out of the digest; and the digest is
 * bounded as a whole, so one broad search cannot crowd the rest of the turn out of the model's context.
 */
export const digestResult = (result: CapabilityResult): string => {
  const byRef = new Map(result.artifacts.map((a) => [a.ref, a]));
  const entries: Record<string, unknown>[] = result.hits.map((hit) => ({
    ref: hit.ref,
    title: clip(hit.title, MAX_TITLE),
    document_id: clip(hit.documentId, MAX_LOCATOR),
    locator: clipOrNull(byRef.get(hit.ref)?.provenance.locator, MAX_LOCATOR),
    text: clip(hit.text, MAX_PASSAGE),
  }));
  const hitRefs = new Set(result.hits.map((h) => h.ref));
  for (const artifact of result.artifacts) {
    if (hitRefs.has(artifact.ref)) continue;
    entries.push({
      ref: artifact.ref,
      kind: artifact.kind,
      title: clipOrNull(artifact.title, MAX_TITLE),
      locator: clip(artifact.provenance.locator, MAX_LOCATOR),
      text: clip(artifact.excerpt, MAX_PASSAGE),
    });
  }
  const kept: Record<string, unknown>[] = [];
  let size = 0;
  for (const entry of entries) {
    size += JSON.stringify(entry).length;
    if (size > MAX_DIGEST) break;
    kept.push(entry);
  }
  return JSON.stringify({
    results: kept,
    ...(kept.length < entries.length ? { omitted: entries.length - kept.length } : {}),
  });
};

/** A failed call as the model sees it: a stable code, never a stack, SQL or path. */
export const digestError = (err: unknown): string => {
  if (err instanceof HelixError && err.code === 'tool_not_found') return JSON.stringify({ error: 'tool_not_found' });
  if (err instanceof HelixError && err.code === 'invalid_request') {
    const issues = err.details.issues ?? [];
    return JSON.stringify({ error: 'invalid_arguments', fields: issues.map((i) => i.path) });
  }
  return JSON.stringify({ error: 'tool_failed' });
};
