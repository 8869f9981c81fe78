import { describe, expect, it } from 'vitest';
import { attributeFor, questionFocus } from './questionFocus.js';

describe('questionFocus', () => {
  it('recognises the asked attribute', () => {
    expect(questionFocus('What is the default value of core.eol?').attribute).toBe('default');
    expect(questionFocus('What is the minimum length of core.abbrev?').attribute).toBe('limit');
    expect(questionFocus('What does git stash drop do?').attribute).toBe('definition');
    expect(questionFocus('Why is the sky blue?').attribute).toBe('other');
  });

  it('reads the attribute per clause for the identifiers of that clause', () => {
    const focus = questionFocus('What is the default of gc.auto, and what does the --depth option do?');
    expect(attributeFor(focus, 'gc.auto')).toBe('default');
    expect(attributeFor(focus, '--depth')).toBe('definition');
    const both = questionFocus('What are the default values of gc.aggressiveDepth and gc.aggressiveWindow?');
    expect(attributeFor(both, 'gc.aggressiveWindow')).toBe('default');
  });
});
