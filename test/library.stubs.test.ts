import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IngestProgress, ingestPaths } from '../src/sources/library/ingest.js';
import { storeFlavours, type TestStore } from './support/stores.js';

// Issue 28: Texinfo's redirect stubs were indexed as documents of one passage that answers nothing.
const stub = (target: string): string =>
  `<html><head><meta http-equiv="Refresh" content="0; url=${target}"></head><body><p>The node you are looking for is at <a href="${target}">it</a>.</p></body></html>`;
const page = (topic: string): string => `<title>${topic}</title><h2>${topic}</h2><p>This page explains ${topic}.</p>`;

describe('helix library add skips redirect stubs', () => {
  describe.each(storeFlavours())('on $name', (flavour) => {
    let t: TestStore;
    let dir: string;
    beforeAll(async () => {
      t = await flavour.create();
      dir = mkdtempSync(join(tmpdir(), 'helix-lib-stubs-'));
    });
    afterAll(async () => {
      await t.dispose();
      rmSync(dir, { recursive: true, force: true });
    });

    it('reports a stub as skipped, with where it redirects, and indexes the real pages beside it', async () => {
      writeFileSync(join(dir, 'Projects.html'), page('projects'));
      writeFileSync(join(dir, 'Bugs.html'), stub('Projects.html#Bugs'));
      const progress: IngestProgress[] = [];
      const report = await ingestPaths(
        t.store,
        [dir],
        () => 1_000,
        (p) => progress.push(p),
      );
      expect(report).toMatchObject({ added: 1, skipped: 1, failed: 0, refused: 0, passages: 1 });
      expect(progress.find((p) => p.path.endsWith('Bugs.html'))).toMatchObject({
        outcome: 'skipped',
        passages: 0,
        reason: 'a redirect stub to Projects.html#Bugs',
      });
      expect((await t.store.read.library.list()).map((doc) => doc.displayPath.split('/').at(-1))).toEqual([
        'Projects.html',
      ]);
    });

    it('removes the stored version of a page that has become a stub', async () => {
      writeFileSync(join(dir, 'Moved.html'), page('moving'));
      expect(await ingestPaths(t.store, [join(dir, 'Moved.html')], () => 2_000)).toMatchObject({ added: 1 });
      writeFileSync(join(dir, 'Moved.html'), stub('Projects.html#Moved'));
      expect(await ingestPaths(t.store, [join(dir, 'Moved.html')], () => 3_000)).toMatchObject({
        skipped: 1,
        updated: 0,
      });
      expect((await t.store.read.library.list()).some((doc) => doc.displayPath.endsWith('Moved.html'))).toBe(false);
      expect(await t.store.read.library.search({ terms: ['moving'], phrases: [] }, 5)).toEqual([]);
    });
  });
});
