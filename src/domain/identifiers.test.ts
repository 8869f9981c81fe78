import { describe, expect, it } from 'vitest';
import { identifiersIn, namesIdentifier } from './identifiers.js';

describe('identifiersIn', () => {
  it('keeps identifiers whole, whatever their shape', () => {
    expect(identifiersIn('What is the default value of gc.auto?')).toEqual(['gc.auto']);
    expect(identifiersIn('What do gc.aggressiveDepth and gc.aggressiveWindow default to?')).toEqual([
      'gc.aggressiveDepth',
      'gc.aggressiveWindow',
    ]);
    expect(identifiersIn('What does the --follow option of git log do?')).toEqual(['--follow']);
    expect(identifiersIn('Is max_connections limited?')).toEqual(['max_connections']);
    expect(identifiersIn('What does parseConfig() return?')).toEqual(['parseConfig()']);
    expect(identifiersIn('How do I use \\section in a document?')).toEqual(['\\section']);
    expect(identifiersIn('Where is branch.<name>.remote read?')).toEqual(['branch.<name>.remote']);
  });

  it('finds no identifier in plain prose', () => {
    expect(identifiersIn('How many loose objects can pile up before git packs them?')).toEqual([]);
    expect(identifiersIn('Is the built-in e-mail tool well-known?')).toEqual([]);
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
