import { describe, expect, it } from 'vitest';
import { composeAnswer } from './compose.js';
import { questionFocus } from './questionFocus.js';
import type { RankedHit } from './relevance.js';

const passage = (ref: string, text: string): RankedHit => ({
  ref,
  title: `Guide ${ref}`,
  text,
  score: 1,
  documentId: ref,
  capabilityId: 'research-library.search',
  coverage: 1,
  matched: 3,
  rank: 1,
});

const compose = (question: string, hits: readonly RankedHit[]) =>
  composeAnswer(question, questionFocus(question), hits);

describe('composeAnswer', () => {
  it('quotes the sentence that states the asked quantity, even when it shares no word with the question', () => {
    const hit = passage(
      'a',
      'When loose objects pile up, automatic housekeeping packs them. Setting this to 0 disables packing. The default value is 6700.',
    );
    const answer = compose('How many loose objects pile up before housekeeping packs them?', [hit]);
    expect(answer?.text).toContain('The default value is 6700. [1]');
  });

  it('declines when no chosen passage states the asked attribute', () => {
    const hit = passage('a', 'Loose objects are packed by automatic housekeeping when there are many.');
    expect(compose('What is the default number of loose objects before housekeeping packs them?', [hit])).toBe(
      undefined,
    );
  });

  it('declines when the passages never name a product the question names', () => {
    const hit = passage('a', 'A team plan costs 4 dollars per user each month.');
    expect(compose('How much does the GitHub Team plan cost per user per month?', [hit])).toBe(undefined);
    expect(compose('How much does the team plan cost per user per month?', [hit])?.cited).toHaveLength(1);
  });

  it('declines when the passages never name an abbreviation-shaped name the question asks about (zstd, lz4)', () => {
    const hit = passage(
      'a',
      'An integer -1..9, indicating the compression level for objects in a pack file. -1 is the zlib default.',
    );
    expect(compose('Which zstd compression level does git use for pack files?', [hit])).toBe(undefined);
    expect(compose('Which lz4 compression level does git use for pack files?', [hit])).toBe(undefined);
    expect(compose('Which zlib compression level does git use for pack files?', [hit])?.cited).toHaveLength(1);
    expect(compose("Which compression level does git's pack writer use?", [hit])?.cited).toHaveLength(1);
  });

  it('quotes a sentence repeated by a copy of the page once', () => {
    const text = 'The number of parallel workers updating the working tree. The default is one.';
    const answer = compose('How many parallel workers update the working tree by default?', [
      passage('a', text),
      passage('b', text),
    ]);
    expect(answer?.text.match(/The number of parallel workers/g)).toHaveLength(1);
  });
});
