import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HelixError } from '../domain/errors.js';
import { MAX_JSON_DEPTH, parseJsonBody } from './jsonBody.js';

const issueOf = (text: string): string => {
  try {
    parseJsonBody(text);
  } catch (err) {
    expect(err).toBeInstanceOf(HelixError);
    return (err as HelixError).details.issues?.[0]?.message ?? '';
  }
  throw new Error('expected a refusal');
};

describe('parseJsonBody', () => {
  it('agrees with JSON.parse on documents within the depth limit', () => {
    fc.assert(
      fc.property(fc.jsonValue({ depthSize: 'small', maxDepth: 10 }), (value) => {
        const text = JSON.stringify(value);
        expect(parseJsonBody(text)).toEqual(JSON.parse(text));
      }),
    );
  });

  it('refuses deep nesting quickly, and is not fooled by brackets inside strings', () => {
    expect(issueOf('['.repeat(100_000))).toMatch(/nesting deeper/);
    const inString = JSON.stringify({ s: '['.repeat(MAX_JSON_DEPTH * 3) });
    expect(parseJsonBody(inString)).toEqual({ s: '['.repeat(MAX_JSON_DEPTH * 3) });
    expect(issueOf('{"a":')).toMatch(/not valid JSON/);
  });
});
