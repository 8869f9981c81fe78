import { describe, expect, it } from 'vitest';
import { namesIdentifier, questionFocus } from './questionFocus.js';

describe('questionFocus', () => {
  it('keeps identifiers whole, whatever their shape', () => {
    expect(questionFocus('What is the default value of gc.auto?').identifiers).toEqual(['gc.auto']);
    expect(questionFocus('What do gc.aggressiveDepth and gc.aggressiveWindow default to?').identifiers).toEqual([
      'gc.aggressiveDepth',
      'gc.aggressiveWindow',
    ]);
    expect(questionFocus('What does the --follow option of git log do?').identifiers).toEqual(['--follow']);
    expect(questionFocus('Is max_connections limited?').identifiers).toEqual(['max_connections']);
    expect(questionFocus('What does parseConfig() return?').identifiers).toEqual(['parseConfig()']);
    expect(questionFocus('How do I use \\section in a document?').identifiers).toEqual(['\\section']);
    expect(questionFocus('Where is branch.<name>.remote read?').identifiers).toEqual(['branch.<name>.remote']);
  });

  it('finds no identifier in plain prose', () => {
    expect(questionFocus('How many loose objects can pile up before git packs them?').identifiers).toEqual([]);
    expect(questionFocus('Is the built-in e-mail tool well-known?').identifiers).toEqual([]);
  });

  it('recognises the asked attribute', () => {
    expect(questionFocus('What is the default value of core.eol?').attribute).toBe('default');
    expect(questionFocus('What is the minimum length of core.abbrev?').attribute).toBe('limit');
    expect(questionFocus('What does git stash drop do?').attribute).toBe('definition');
    expect(questionFocus('Why is the sky blue?').attribute).toBe('other');
  });
});

describe('namesIdentifier', () => {
  it('matches the whole name only, case-insensitively', () => {
    expect(namesIdentifier('gc.auto\n\nThe default value is 6700.', 'gc.auto')).toBe(true);
    expect(namesIdentifier('See GC.AUTO for details.', 'gc.auto')).toBe(true);
    expect(namesIdentifier('gc.autoDetach defaults to true.', 'gc.auto')).toBe(false);
    expect(namesIdentifier('Setting gc.auto.x is odd', 'gc.auto')).toBe(false);
    expect(namesIdentifier('use --follow-tags', '--follow')).toBe(false);
    expect(namesIdentifier('use --follow.', '--follow')).toBe(true);
  });
});
