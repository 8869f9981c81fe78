import { describe, expect, it } from 'vitest';
import { answerValues, ungroundedValues } from './answerValues.js';

describe('answerValues', () => {
  it('finds numbers, identifiers and quoted strings, not citation markers or list numbering', () => {
    expect(answerValues('1. gc.auto defaults to 6700 [1], and `core.eol` to "native" [2].')).toEqual([
      { kind: 'number', value: '6700' },
      { kind: 'identifier', value: 'gc.auto' },
      { kind: 'identifier', value: 'core.eol' },
      { kind: 'quoted', value: 'core.eol' },
      { kind: 'quoted', value: 'native' },
    ]);
    expect(answerValues('A built-in, well-known tool.')).toEqual([]);
  });
});

describe('ungroundedValues', () => {
  const passage = 'gc.auto\nWhen there are more loose objects than this, gc packs them. The default value is 6700.';

  it('accepts a paraphrase whose values all occur in what it cites', () => {
    expect(ungroundedValues('By default, gc.auto packs once 6700 loose objects pile up [1].', [passage])).toEqual([]);
  });

  it('names each value the cited passages never state', () => {
    expect(ungroundedValues('gc.auto defaults to 6800; see "--aggressive" and gc.autoDetach.', [passage])).toEqual([
      { kind: 'number', value: '6800' },
      { kind: 'identifier', value: '--aggressive' },
      { kind: 'identifier', value: 'gc.autoDetach' },
      { kind: 'quoted', value: '--aggressive' },
    ]);
  });
});
