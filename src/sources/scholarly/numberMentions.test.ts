import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../domain/hashing.js';
import type { Capability } from '../capability.js';
import { findNumberMentions, splitSentences } from './numberMentions.js';
import { scholarlyCapabilities } from './scholarlyCapabilities.js';
import { growthRatio, linearBound } from '../../../test/support/growth.js';

const TEXT =
  'Training took 3.5 days on 1,024 GPUs (e.g. A100s), i.e. about 86,000 GPU-hours. ' +
  'The model has 175 billion parameters and cost $4.6 million. ' +
  'Latency fell by 30% to 12 ± 3 ms at 2.4 GHz. In 2020, Fig. 3 showed a 3x speedup at −5 °C. ' +
  'Rates of 1.2×10^-3 s were seen with 10–20 ms jitter.';

describe('findNumberMentions', () => {
  it('finds quantities with their unit, value and sentence, and skips bare numbers', () => {
    const found = findNumberMentions(TEXT).map((m) => [m.text, m.value, m.unit]);
    expect(found).toEqual([
      ['3.5 days', 3.5, 'days'],
      ['1,024 GPUs', 1024, 'GPUs'],
      ['86,000 GPU-hours', 86_000, 'GPU-hours'],
      ['175 billion parameters', 175e9, 'parameters'],
      ['$4.6 million', 4.6e6, 'USD'],
      ['30%', 30, '%'],
      ['12 ± 3 ms', 12, 'ms'],
      ['2.4 GHz', 2.4, 'GHz'],
      ['3x', 3, '×'],
      ['−5 °C', -5, '°C'],
      ['1.2×10^-3 s', 1.2e-3, 's'],
      ['10–20 ms', 10, 'ms'],
    ]);
    const latency = findNumberMentions(TEXT).find((m) => m.unit === 'GHz');
    expect(latency?.sentence.text).toBe('Latency fell by 30% to 12 ± 3 ms at 2.4 GHz.');
  });

  it('does not end sentences after abbreviations or initials', () => {
    expect(splitSentences('See Fig. 2 and Smith J. et al. for 5 ms. Then stop.').map((s) => s.text)).toEqual([
      'See Fig. 2 and Smith J. et al. for 5 ms.',
      'Then stop.',
    ]);
  });

  it('reports spans that slice back to the mention and lie inside its sentence', () => {
    const prose = fc.array(
      fc.oneof(
        fc.constantFrom('3 ms', '4.5%', ' ', '. ', 'e.g. ', '$2 billion', '12,000 tokens', '\n\n', 'x', '−1 K', '7'),
        fc.string({ maxLength: 6 }),
      ),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(prose, (parts) => {
        const text = parts.join('');
        for (const mention of findNumberMentions(text)) {
          expect(text.slice(mention.start, mention.end)).toBe(mention.text);
          expect(text.slice(mention.sentence.start, mention.sentence.end)).toBe(mention.sentence.text);
          expect(mention.start).toBeGreaterThanOrEqual(mention.sentence.start);
          expect(mention.end).toBeLessThanOrEqual(mention.sentence.end);
          expect(Number.isFinite(mention.value)).toBe(true);
        }
      }),
    );
  });

  it('stays linear on punctuation runs', async () => {
    const sizes = { small: 10_000, big: 80_000 };
    const run = (n: number) => findNumberMentions(`${'.'.repeat(n)}${'1'.repeat(n)}`);
    expect(await growthRatio(run, sizes)).toBeLessThan(linearBound(sizes));
  });
});

describe('scholarly.extract_numbers', () => {
  const capability = (): Capability => {
    const found = scholarlyCapabilities({ crossrefUrl: 'http://127.0.0.1:9' }).find(
      (c) => c.id === 'scholarly.extract_numbers',
    );
    if (found === undefined) throw new Error('missing');
    return found;
  };

  it('returns one observation per quantity, located in the caller text by hash and offsets', async () => {
    const extract = capability();
    const result = await extract.execute(extract.input.parse({ text: TEXT }), {
      runId: 'run_test',
      turn: 1,
      signal: new AbortController().signal,
      now: () => 0,
    });
    expect(result.hits).toEqual([]);
    expect(result.artifacts).toHaveLength(12);
    const ghz = result.artifacts.find((a) => a.title === '2.4 GHz');
    expect(ghz).toMatchObject({
      kind: 'observation',
      family: 'scholarly_evidence',
      capabilityId: 'scholarly.extract_numbers',
      excerpt: '2.4 GHz (value 2.4, unit GHz): Latency fell by 30% to 12 ± 3 ms at 2.4 GHz.',
      provenance: {
        source_id: 'caller_text',
        locator: `text:sha256:${sha256Hex(TEXT)}`,
        span: { start: TEXT.indexOf('2.4 GHz'), end: TEXT.indexOf('2.4 GHz') + 7 },
        retrieved_at: '1970-01-01T00:00:00.000Z',
      },
    });
    expect(new Set(result.artifacts.map((a) => a.ref)).size).toBe(12);
  });

  it('accepts at most 20,000 characters', () => {
    expect(capability().input.safeParse({ text: 'x'.repeat(20_001) }).success).toBe(false);
    expect(capability().input.safeParse({ text: '' }).success).toBe(false);
  });
});
