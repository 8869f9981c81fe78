import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './hashing.js';

const shuffleKeys = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(shuffleKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, shuffleKeys(v)]),
    );
  }
  return value;
};

describe('canonicalJson', () => {
  it('is invariant under key order (idempotency fingerprints) and preserves the value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(shuffleKeys(value))).toBe(canonicalJson(value));
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});
