import { describe, expect, it } from 'vitest';
import { focusedConflicts, selectFocused } from './focusedAnswer.js';
import { questionFocus } from './questionFocus.js';
import type { RankedHit } from './relevance.js';

const hit = (ref: string, heading: string | undefined, text: string, documentId = ref): RankedHit => ({
  ref,
  title: `Manual — ${heading ?? ''}`,
  text,
  score: 1,
  documentId,
  capabilityId: 'research-library.search',
  coverage: 1,
  matched: 3,
  rank: 1,
  ...(heading === undefined ? {} : { heading }),
});

// Two neighbouring entries: each label sits with its own description.
const AUTO = hit(
  'a',
  'Variables › gc.auto',
  'gc.auto\n\nWhen there are more loose objects than this, gc packs them. The default value is 6700.',
);
const PACKS = hit(
  'b',
  'Variables › gc.autoPackLimit',
  'gc.autoPackLimit\n\nWhen there are more packs than this, gc consolidates them. The default value is 50.',
);
const MENTION = hit(
  'c',
  'Options › --auto',
  '--auto\n\nRuns only when needed; see gc.auto. By default nothing happens.',
);

describe('selectFocused', () => {
  it("answers from the identifier's own entry, never from its neighbour's", () => {
    const question = 'What is the default value of gc.auto?';
    const selection = selectFocused(question, questionFocus(question), [PACKS, MENTION, AUTO]);
    expect(selection).toEqual({
      kind: 'answer',
      sentences: [{ identifier: 'gc.auto', sentence: 'The default value is 6700.', hit: AUTO }],
    });
  });

  it('answers each identifier of a two-part question from its own entry', () => {
    const question = 'What are the default values of gc.auto and gc.autoPackLimit?';
    const selection = selectFocused(question, questionFocus(question), [AUTO, PACKS]);
    expect(selection.kind === 'answer' && selection.sentences.map((s) => s.sentence)).toEqual([
      'The default value is 6700.',
      'The default value is 50.',
    ]);
  });

  it('of two entries for one name, answers from the one whose source the question names', () => {
    const fetchDepth = {
      ...hit(
        'f',
        'OPTIONS › --depth <depth>',
        '--depth <depth>\n\nLimit fetching to the given number of commits, as git clone does for a shallow clone.',
      ),
      title: 'git-fetch(1) — OPTIONS › --depth <depth>',
    };
    const cloneDepth = {
      ...hit(
        'c2',
        'OPTIONS › --depth <depth>',
        '--depth <depth>\n\nCreate a repository whose history is truncated to the given number of commits.',
      ),
      title: 'git-clone(1) — OPTIONS › --depth <depth>',
    };
    const question = 'What does the --depth option of git clone do?';
    const selection = selectFocused(question, questionFocus(question), [fetchDepth, cloneDepth]);
    expect(selection.kind === 'answer' && selection.sentences.map((s) => s.hit.ref)).toEqual(['c2']);
  });

  it('asks of each identifier what its own clause asks: a default in one clause does not make --depth a default question', () => {
    const cloneDepth = {
      ...hit(
        'c2',
        'OPTIONS › --depth <depth>',
        '--depth <depth>\n\nCreate a shallow clone with a history truncated to the given number of commits.',
      ),
      title: 'git-clone(1) — OPTIONS › --depth <depth>',
    };
    const svnDepth = {
      ...hit('s1', 'OPTIONS › --depth <depth>', '--depth <depth>\n\nHow deep to walk the log. Default is 50.'),
      title: 'git-svn(1) — OPTIONS › --depth <depth>',
    };
    const question = 'Which remote name does git clone use by default, and what does its --depth option do?';
    const selection = selectFocused(question, questionFocus(question), [svnDepth, cloneDepth]);
    expect(selection.kind === 'answer' && selection.sentences.map((s) => s.sentence)).toEqual([
      'Create a shallow clone with a history truncated to the given number of commits.',
    ]);
  });

  it('declines an identifier no passage names, and an entry that never states the asked attribute', () => {
    const unknown = 'What is the default value of gc.autoCompressLevel?';
    expect(selectFocused(unknown, questionFocus(unknown), [AUTO, PACKS])).toEqual({
      kind: 'not_found',
      identifier: 'gc.autoCompressLevel',
      what: 'entity',
    });
    const silent = hit('d', 'Variables › gc.logExpiry', 'gc.logExpiry\n\nHow long the gc.log file is kept.');
    const question = 'What is the default value of gc.logExpiry?';
    expect(selectFocused(question, questionFocus(question), [silent])).toEqual({
      kind: 'not_found',
      identifier: 'gc.logExpiry',
      what: 'attribute',
    });
  });
});

describe('focusedConflicts', () => {
  it("two documents' entries stating different defaults for one identifier are a contradiction", () => {
    const notes = hit('z', 'Settings › gc.auto', 'gc.auto\n\nOld notes. The default value is 2000.', 'notes');
    const question = 'What is the default value of gc.auto?';
    const [conflict, ...rest] = focusedConflicts(question, questionFocus(question), [AUTO, notes]);
    expect(rest).toEqual([]);
    expect(conflict?.refs).toEqual(['a', 'z']);
    expect(conflict?.sentences).toEqual(['The default value is 6700.', 'The default value is 2000.']);
    // The same value in two documents is agreement, and a mere mention is not an entry.
    const copy = hit('y', 'Settings › gc.auto', 'gc.auto\n\nThe default value is 6700.', 'copy');
    expect(focusedConflicts(question, questionFocus(question), [AUTO, copy, MENTION])).toEqual([]);
  });
});
