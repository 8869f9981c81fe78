import { describe, expect, it } from 'vitest';
import { bestWindows, queryTerms } from './searchScoring.js';

describe('queryTerms', () => {
  it('keeps distinct lower-case words of three or more characters that are not stopwords', () => {
    expect(queryTerms('How does the WAL checkpoint work? checkpoint, io, parseConfig')).toEqual([
      'wal',
      'checkpoint',
      'work',
      'parseconfig',
    ]);
  });
});

describe('bestWindows', () => {
  const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
  lines[2] = 'alpha';
  lines[14] = 'alpha beta';
  lines[15] = 'gamma';
  lines[28] = 'beta';

  it('centres windows on the best lines, best first, without overlap', () => {
    const windows = bestWindows(lines, ['alpha', 'beta', 'gamma'], 'docs/notes.md', { radius: 3, maxWindows: 3 });
    expect(windows.map(({ start, end }) => [start, end])).toEqual([
      [12, 18],
      [1, 6],
      [26, 30],
    ]);
    expect(windows[0]?.score).toBeGreaterThan(windows[1]?.score ?? 0);
  });

  it('scores terms in the path as a tie-breaker only', () => {
    const [named] = bestWindows(['alpha'], ['alpha'], 'alpha.ts', { radius: 3, maxWindows: 1 });
    const [other] = bestWindows(['alpha'], ['alpha'], 'other.ts', { radius: 3, maxWindows: 1 });
    expect((named?.score ?? 0) - (other?.score ?? 0)).toBe(0.5);
  });

  it('returns nothing when no line matches', () => {
    expect(bestWindows(lines, ['delta'], 'a', { radius: 3, maxWindows: 2 })).toEqual([]);
  });
});
