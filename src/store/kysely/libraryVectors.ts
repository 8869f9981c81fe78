/**
 * Embedding vectors as the store keeps them: L2-normalized, then Float32 little-endian bytes
 * (4 bytes a dimension, half of what a float64 would take; the precision lost is far below what
 * ranking can tell apart). Normalizing once on the way in makes cosine similarity a dot product.
 */

/** The vector scaled to length 1; undefined for a zero (or non-finite) vector, which has no direction. */
export const normalized = (vector: readonly number[]): Float32Array | undefined => {
  let sum = 0;
  for (const x of vector) sum += x * x;
  const norm = Math.sqrt(sum);
  if (!Number.isFinite(norm) || norm === 0) return undefined;
  return Float32Array.from(vector, (x) => x / norm);
};

export const encodeVector = (vector: Float32Array): Uint8Array => {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  for (const [i, x] of vector.entries()) view.setFloat32(i * 4, x, true);
  return bytes;
};

/** Dot product of a stored vector's bytes with `query` (same length), without copying the bytes. */
export const dotWithStored = (stored: Uint8Array, query: Float32Array): number => {
  const view = new DataView(stored.buffer, stored.byteOffset, stored.byteLength);
  let dot = 0;
  for (let i = 0; i < query.length; i++) dot += view.getFloat32(i * 4, true) * (query[i] ?? 0);
  return dot;
};

/** The `limit` best-scored entries, best first, ties broken by id so results are stable. */
export const topScored = <T extends { readonly id: string; readonly score: number }>(
  entries: Iterable<T>,
  limit: number,
): T[] => {
  const best: T[] = [];
  const before = (a: T, b: T): boolean => a.score > b.score || (a.score === b.score && a.id < b.id);
  for (const entry of entries) {
    const worst = best.at(-1);
    if (best.length === limit && worst !== undefined && !before(entry, worst)) continue;
    const at = best.findIndex((b) => before(entry, b));
    best.splice(at === -1 ? best.length : at, 0, entry);
    if (best.length > limit) best.pop();
  }
  return best;
};
