import { describe, expect, it } from 'vitest';
import { expectedTypes } from './answerTypes.js';

describe('expected answer types', () => {
  it.each([
    ['How many workers does the pool start?', ['quantity']],
    ['How large can a message body be?', ['quantity']],
    ['What is the largest file the server accepts?', ['quantity']],
    ['Which port does the server listen on?', ['quantity']],
    ['Which version of the protocol added streaming?', ['version_date']],
    ['When was the format introduced?', ['version_date']],
    ['What is the default value of cache.size?', ['name']],
    ['Which option disables colour output?', ['name']],
    ['What extension does the backup file get?', ['name']],
    ['Where is the configuration file stored?', ['location']],
    ['Why does the tool refuse to overwrite files?', ['reason']],
    ['Is the cache shared between users?', ['yes_no']],
    ['What is a hunk?', ['definition']],
    ['What does --strict mean?', ['definition']],
    ['Explain how merging works.', ['explanation']],
    // "most" and "least" describe here; they do not ask for a number.
    ['How do I make a clone that only contains the most recent commits?', ['explanation']],
    ['What does the lowest level mean?', ['definition']],
    ['What range of compression levels does the tool accept?', ['quantity']],
    ['How many entries can the index hold at most?', ['quantity']],
  ])('%s → %j', (question, types) => {
    expect(expectedTypes(question)).toEqual(types);
  });

  it('reads lists and procedures, and drops the single-value types a list is not answered by', () => {
    expect(expectedTypes('What are the supported output formats?')).toEqual(['list']);
    expect(expectedTypes('Which packages are installed with the tool?')).toEqual(['list']);
    expect(expectedTypes('List the states a job can be in.')).toEqual(['list']);
    expect(expectedTypes('What does each option in tar -xzf do?')).toEqual(['list']);
    expect(expectedTypes('What are the steps to set up a mirror, in order?')).toEqual(['procedure', 'list']);
    // A set of versions may be answered by one range ("3.7 and newer").
    expect(expectedTypes('Which Python versions are supported?')).toEqual(['list', 'version_date']);
  });

  it('asks nothing in particular of a question it cannot read (another language, a bare topic)', () => {
    expect(expectedTypes('Wie funktioniert das Zusammenführen?')).toEqual(['explanation']);
    expect(expectedTypes('merging')).toEqual(['explanation']);
  });
});
