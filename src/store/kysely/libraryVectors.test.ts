import { describe, expect, it } from 'vitest';
import { dotWithStored, encodeVector, normalized, topScored } from './libraryVectors.js';

describe('library vectors', () => {
  it('are kept as Float32 little-endian bytes, 4 a dimension, after normalizing', () => {
    const unit = normalized([3, 4]);
    expect(unit).toEqual(Float32Array.from([0.6, 0.8]));
    const bytes = encodeVector(Float32Array.from([1, -2]));
    expect(bytes).toHaveLength(8);
    // 1.0f = 0x3f800000, -2.0f = 0xc0000000, low byte first.
    expect([...bytes]).toEqual([0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0xc0]);
  });

  it('has no direction for a zero or non-finite vector', () => {
    expect(normalized([0, 0, 0])).toBeUndefined();
    expect(normalized([Number.POSITIVE_INFINITY, 1])).toBeUndefined();
  });

  it('scores a stored vector by its dot product with the query, from an offset buffer too', () => {
    const stored = encodeVector(Float32Array.from([0.6, 0.8]));
    const shifted = new Uint8Array(stored.length + 3);
    shifted.set(stored, 3);
    const query = Float32Array.from([1, 0]);
    expect(dotWithStored(stored, query)).toBeCloseTo(0.6, 6);
    expect(dotWithStored(shifted.subarray(3), query)).toBeCloseTo(0.6, 6);
  });

  it('keeps the best entries, best first, ties by id', () => {
    const scored = [
      { id: 'c', score: 0.5 },
      { id: 'a', score: 0.9 },
      { id: 'b', score: 0.5 },
      { id: 'd', score: 0.1 },
    ];
    expect(topScored(scored, 3).map((e) => e.id)).toEqual(['a', 'b', 'c']);
    expect(topScored(scored, 0)).toEqual([]);
  });
});
