import { describe, expect, it } from 'vitest';
import type { LibrarySearchHit } from '../../store/port.js';
import { libraryQueryFor, rerank } from './rankedSearch.js';

const hit = (
  id: string,
  score: number,
  text: string,
  title = 'Manual',
  heading: string | null = null,
): LibrarySearchHit => ({
  passage: { passageId: id, docId: `doc_${id}`, ordinal: 0, heading, page: null, start: 0, end: text.length, text },
  document: { docId: `doc_${id}`, title, displayPath: `${id}.html` },
  score,
});

const order = (hits: readonly LibrarySearchHit[]): string[] => hits.map((h) => h.passage.passageId);

describe('libraryQueryFor', () => {
  it('keeps the identifiers a question names whole, beside its content words', () => {
    expect(libraryQueryFor('What is the default value of gc.auto?')).toEqual({
      terms: ['default', 'value', 'gc', 'auto'],
      phrases: ['gc.auto'],
    });
    expect(libraryQueryFor('How do I delete one saved stash?').phrases).toEqual([]);
  });
});

describe('rerank', () => {
  it('lifts the passage that names the asked identifier exactly over a better lexical match for its parts', () => {
    const query = libraryQueryFor('What is the default value of gc.auto?');
    const detach = hit('detach', 9, 'gc.autoDetach: the default value makes auto gc run in the background.');
    const entry = hit('entry', 6, 'gc.auto: when there are more loose objects than this, git gc --auto packs them.');
    expect(order(rerank([detach, entry], query))).toEqual(['entry', 'detach']);
  });

  it('lifts the entry whose title and heading path carry the question’s words', () => {
    const query = libraryQueryFor('What does git stash drop do?');
    const example = hit('example', 8, 'Drop the stash when you are done: git stash drop does it.', 'gittutorial(7)');
    const entry = hit(
      'entry',
      5,
      'Remove a single stash entry from the list.',
      'git-stash(1)',
      'Commands › drop [-q] [<stash>]',
    );
    expect(order(rerank([example, entry], query))).toEqual(['entry', 'example']);
  });

  it('keeps the engine order when no boost applies, and reports the boosted score', () => {
    const query = libraryQueryFor('loose objects');
    const ranked = rerank(
      [hit('a', 4, 'loose objects'), hit('b', 4, 'loose objects too'), hit('c', 2, 'objects')],
      query,
    );
    expect(order(ranked)).toEqual(['a', 'b', 'c']);
    expect(ranked[2]?.score).toBeCloseTo(0.5);
    expect(rerank([], query)).toEqual([]);
  });
});
