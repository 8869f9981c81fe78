import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LibraryDocumentRecord, LibraryPassageRecord } from '../src/store/port.js';
import { storeFlavours, type TestStore } from './support/stores.js';

const MODEL = 'fixture-embed';

/** A document with one passage per axis-aligned vector, so the nearest passage is known by construction. */
const document = (docId: string, count: number): [LibraryDocumentRecord, LibraryPassageRecord[]] => [
  {
    docId,
    origin: `/lib/${docId}.md`,
    displayPath: `${docId}.md`,
    title: docId,
    mediaType: 'text/markdown',
    sha256: docId.padEnd(64, '0'),
    bytes: 1,
    passageCount: count,
    addedAt: 1,
    updatedAt: 1,
  },
  Array.from({ length: count }, (_, ordinal) => ({
    passageId: `${docId}:${ordinal}`,
    docId,
    ordinal,
    heading: null,
    page: null,
    start: ordinal,
    end: ordinal + 1,
    text: `${docId} passage ${ordinal}`,
  })),
];

const axis = (dims: number, at: number, length = 1): number[] =>
  Array.from({ length: dims }, (_, i) => (i === at ? length : 0));

describe.each(storeFlavours())('library embeddings on $name', (flavour) => {
  let t: TestStore;
  const library = () => t.store.read.library;
  beforeAll(async () => {
    t = await flavour.create();
    await t.store.transaction(async (uow) => {
      await uow.library.replaceDocument(...document('alpha', 3));
      await uow.library.replaceDocument(...document('beta', 2));
    });
  });
  afterAll(async () => t.dispose());

  it('lists the passages without an embedding, in document order, and counts them', async () => {
    expect(await library().countUnembedded(MODEL)).toBe(5);
    const refs = await library().unembedded(MODEL, 4);
    expect(refs.map((r) => r.passage.passageId)).toEqual(['alpha:0', 'alpha:1', 'alpha:2', 'beta:0']);
    expect(refs[0]?.document).toEqual({ docId: 'alpha', title: 'alpha', displayPath: 'alpha.md' });
  });

  it('stores vectors and ranks the nearest by cosine, whatever their length', async () => {
    await t.store.transaction((uow) =>
      uow.library.putEmbeddings(MODEL, [
        { passageId: 'alpha:0', vector: axis(4, 0, 7) },
        { passageId: 'alpha:1', vector: [1, 1, 0, 0] },
        { passageId: 'alpha:2', vector: axis(4, 2) },
        { passageId: 'beta:0', vector: axis(4, 3) },
        { passageId: 'beta:1', vector: [0, 0, 0, 0] },
      ]),
    );
    const hits = await library().nearest([2, 0, 0, 0], MODEL, 2);
    expect(hits.map((h) => h.passage.passageId)).toEqual(['alpha:0', 'alpha:1']);
    expect(hits[0]?.score).toBeCloseTo(1, 6);
    expect(hits[1]?.score).toBeCloseTo(Math.SQRT1_2, 6);
    expect(hits[0]?.document.displayPath).toBe('alpha.md');
    expect(hits[0]?.passage.text).toBe('alpha passage 0');
    // The zero vector has no direction and is not stored: that passage stays lexical only.
    expect((await library().unembedded(MODEL, 10)).map((r) => r.passage.passageId)).toEqual(['beta:1']);
  });

  it('never compares vectors of another model or another length', async () => {
    expect(await library().nearest(axis(4, 0), 'other-model', 5)).toEqual([]);
    expect(await library().nearest(axis(8, 0), MODEL, 5)).toEqual([]);
    expect(await library().countUnembedded('other-model')).toBe(5);
    expect(await library().nearest([0, 0, 0, 0], MODEL, 5)).toEqual([]);
  });

  it('replaces a passage’s vector when it is embedded again (by another model)', async () => {
    await t.store.transaction((uow) =>
      uow.library.putEmbeddings('other-model', [{ passageId: 'alpha:2', vector: axis(4, 0) }]),
    );
    expect((await library().nearest(axis(4, 0), 'other-model', 5)).map((h) => h.passage.passageId)).toEqual([
      'alpha:2',
    ]);
    expect((await library().nearest(axis(4, 2), MODEL, 1))[0]?.passage.passageId).not.toBe('alpha:2');
  });

  it('drops a document’s vectors when it is replaced or removed', async () => {
    await t.store.transaction((uow) => uow.library.replaceDocument(...document('alpha', 1)));
    expect((await library().nearest(axis(4, 0), MODEL, 10)).map((h) => h.passage.passageId)).toEqual(['beta:0']);
    expect((await library().unembedded(MODEL, 10)).map((r) => r.passage.passageId)).toEqual(['alpha:0', 'beta:1']);
    expect(await library().remove('beta')).toBe(true);
    expect(await library().nearest(axis(4, 3), MODEL, 10)).toEqual([]);
    expect(await library().countUnembedded(MODEL)).toBe(1);
  });
});
