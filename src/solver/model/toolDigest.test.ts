import { describe, expect, it } from 'vitest';
import type { TurnArtifact } from '../../domain/turn.js';
import type { CapabilityResult } from '../../sources/capability.js';
import { digestResult } from './toolDigest.js';

const artifact = (n: number, overrides: Partial<TurnArtifact> = {}): TurnArtifact => ({
  ref: `artifact:sha256:${String(n).padStart(64, '0')}`,
  kind: 'evidence',
  family: 'library',
  capabilityId: 'research-library.read',
  sha256: String(n).padStart(64, '0'),
  provenance: { source_id: 'lib', locator: `doc/${n}.md`, retrieved_at: '2026-01-01T00:00:00.000Z', turn: 1 },
  excerpt: `passage ${n}`,
  title: `Title ${n}`,
  ...overrides,
});

const digest = (result: CapabilityResult) =>
  JSON.parse(digestResult(result)) as {
    results: { ref: string; title: string | null; locator: string | null; text: string }[];
    omitted?: number;
  };

describe('digestResult', () => {
  it('clips oversized source fields instead of dropping the result (and every result after it)', () => {
    const huge = 'z'.repeat(50_000);
    const hostile = artifact(1, {
      title: huge,
      excerpt: huge,
      provenance: { ...artifact(1).provenance, locator: huge },
    });
    const seen = digest({ artifacts: [hostile, artifact(2)], hits: [] });
    expect(seen.results.map((r) => r.ref)).toEqual([hostile.ref, artifact(2).ref]);
    expect(seen.results[0]!.title!.length).toBeLessThanOrEqual(200);
    expect(seen.results[0]!.locator!.length).toBeLessThanOrEqual(400);
    expect(seen.results[0]!.text.length).toBeLessThanOrEqual(1_200);
    expect(seen.omitted).toBeUndefined();
  });

  it('clips a hit title, and keeps the whole digest under its bound by omitting the tail', () => {
    const hits = Array.from({ length: 60 }, (_, n) => ({
      ref: artifact(n).ref,
      title: 't'.repeat(10_000),
      text: 'x'.repeat(5_000),
      score: 1,
      documentId: `d${n}`,
    }));
    const text = digestResult({ artifacts: hits.map((_, n) => artifact(n)), hits });
    expect(text.length).toBeLessThan(17_000);
    const seen = JSON.parse(text) as { results: { title: string }[]; omitted: number };
    expect(seen.results.length).toBeGreaterThan(1);
    expect(seen.results[0]!.title.length).toBeLessThanOrEqual(200);
    expect(seen.results.length + seen.omitted).toBe(60);
  });
});
