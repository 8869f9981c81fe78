import { describe, expect, it } from 'vitest';
import { questionFocus } from './questionFocus.js';

describe('questionFocus', () => {
  it('recognises the asked attribute', () => {
    expect(questionFocus('What is the default value of core.eol?').attribute).toBe('default');
    expect(questionFocus('What is the minimum length of core.abbrev?').attribute).toBe('limit');
    expect(questionFocus('What does git stash drop do?').attribute).toBe('definition');
    expect(questionFocus('Why is the sky blue?').attribute).toBe('other');
  });
});
