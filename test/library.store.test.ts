import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LibraryDocumentRecord, LibraryPassageRecord } from '../src/store/port.js';
import { storeFlavours, type TestStore } from './support/stores.js';

const doc = (id: string, title: string, texts: string[]): [LibraryDocumentRecord, LibraryPassageRecord[]] => [
  {
    docId: id,
    origin: `/lib/${id}.md`,
    displayPath: `${id}.md`,
    title,
    mediaType: 'text/markdown',
    sha256: id.padEnd(64, '0'),
    bytes: 10,
    passageCount: texts.length,
    addedAt: 1,
    updatedAt: 1,
  },
  texts.map((text, ordinal) => ({
    passageId: `${id}:${ordinal}`,
    docId: id,
    ordinal,
    heading: ordinal === 0 ? title : null,
    page: null,
    start: ordinal * 100,
    end: ordinal * 100 + text.length,
    text,
  })),
];

describe.each(storeFlavours())('library index on $name', (flavour) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await flavour.create();
    await t.store.transaction(async (uow) => {
      await uow.library.replaceDocument(
        ...doc('recovery', 'Crash recovery', [
          'A killed server is recovered at start-up: the interrupted turn goes back to waiting.',
          'Event sequence numbers stay contiguous.',
        ]),
      );
      await uow.library.replaceDocument(
        ...doc('keys', 'API keys', [
          'Keys are stored as hashes and shown once.',
          'Revoking a key makes the next request fail.',
        ]),
      );
    });
  });
  afterAll(async () => t.dispose());

  it('ranks stemmed OR matches, best first, with document identity', async () => {
    const hits = await t.store.read.library.search({ terms: ['recovering', 'killed', 'servers'], phrases: [] }, 5);
    expect(hits[0]?.passage.passageId).toBe('recovery:0');
    expect(hits[0]?.document).toEqual({ docId: 'recovery', title: 'Crash recovery', displayPath: 'recovery.md' });
    expect(hits[0]!.score).toBeGreaterThan(0);
  });

  it('returns nothing for absent topics and ignores query syntax in terms', async () => {
    expect(await t.store.read.library.search({ terms: ['photosynthesis'], phrases: [] }, 5)).toEqual([]);
    expect(
      await t.store.read.library.search({ terms: ['"hashes" OR *', 'NEAR(', '&|!'], phrases: [] }, 5),
    ).toHaveLength(1);
    expect(await t.store.read.library.search({ terms: [], phrases: [] }, 5)).toEqual([]);
  });

  it('matches an identifier as a whole phrase: gc.auto finds its entry, not gc.autoDetach nor the loose words', async () => {
    await t.store.transaction((uow) =>
      uow.library.replaceDocument(
        ...doc('gc', 'Garbage collection', [
          'gc.autoDetach makes the housekeeping run in the background.',
          'gc.auto sets how many loose objects trigger a collection; the default is 6700.',
          'Automatic collection is sometimes called auto gc.',
        ]),
      ),
    );
    try {
      const hits = await t.store.read.library.search({ terms: [], phrases: ['gc.auto'] }, 5);
      expect(hits.map((h) => h.passage.passageId)).toEqual(['gc:1']);
      // Query syntax inside a phrase is text, never an operator.
      expect(await t.store.read.library.search({ terms: [], phrases: ['"zebra" OR *', 'NEAR(zebra'] }, 5)).toEqual([]);
      const both = await t.store.read.library.search({ terms: ['housekeeping'], phrases: ['gc.auto'] }, 5);
      expect(both.map((h) => h.passage.passageId).sort()).toEqual(['gc:0', 'gc:1']);
    } finally {
      await t.store.transaction(async (uow) => {
        await uow.library.remove('gc');
      });
    }
  });

  it('replacing a document replaces its passages in the index; removing drops them', async () => {
    await t.store.transaction((uow) =>
      uow.library.replaceDocument(...doc('keys', 'API keys v2', ['Keys rotate yearly.'])),
    );
    expect(await t.store.read.library.search({ terms: ['hashes'], phrases: [] }, 5)).toEqual([]);
    expect((await t.store.read.library.search({ terms: ['rotate'], phrases: [] }, 5))[0]?.document.title).toBe(
      'API keys v2',
    );
    expect(await t.store.read.library.countPassages()).toBe(3);
    expect(await t.store.read.library.remove('keys')).toBe(true);
    expect(await t.store.read.library.remove('keys')).toBe(false);
    expect(await t.store.read.library.search({ terms: ['rotate'], phrases: [] }, 5)).toEqual([]);
    expect((await t.store.read.library.passages('recovery', 0, 5)).map((p) => p.ordinal)).toEqual([0, 1]);
  });
});
