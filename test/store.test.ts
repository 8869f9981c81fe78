import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../src/domain/run.js';
import { baseRun } from './support/runRecord.js';
import { storeFlavours, type TestStore } from './support/stores.js';

describe.each(storeFlavours())('store port on $name', (flavour) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await flavour.create();
  });
  afterAll(async () => t.dispose());

  it('round-trips a run exactly, including epoch-ms instants and the active turn', async () => {
    const run = {
      ...baseRun('run_roundtrip01'),
      activeTurn: {
        turnId: 'turn_1',
        workerId: 'wkr_1',
        leaseExpiresAt: 4_102_444_800_123,
        startedAt: 1_700_000_000_001,
      },
    };
    await t.store.read.runs.insert(run);
    expect(await t.store.read.runs.get(run.runId)).toEqual(run);
    expect((await t.store.read.runs.listWithActiveTurn()).map((r) => r.runId)).toContain(run.runId);
  });

  it("the latest result's writer is stored in the run state; a result stored before it existed reads as null", async () => {
    const result = {
      turn: 1,
      outcome: 'succeeded' as const,
      text: 'Answer. [1]',
      supporting_evidence_refs: ['artifact:sha256:a'],
      output_fields: {},
      terminal_candidate_ref: 'candidate:sha256:c',
      writer: 'helix.extractive',
      authority_reason: null,
      failure_code: null,
      failure_detail: null,
    };
    const written = { ...baseRun('run_writer0001'), latestResult: result };
    await t.store.read.runs.insert(written);
    expect((await t.store.read.runs.get(written.runId))?.latestResult?.writer).toBe('helix.extractive');
    const { writer: _absent, ...before } = result;
    const old = { ...baseRun('run_writer0002'), latestResult: before as unknown as RunRecord['latestResult'] };
    await t.store.read.runs.insert(old);
    expect((await t.store.read.runs.get(old.runId))?.latestResult).toEqual({ ...result, writer: null });
  });

  it("a failed result's provider-stated failure detail round-trips; a result stored before it existed reads as null", async () => {
    const failure_detail = {
      provider: 'codex-subscription',
      type: null,
      code: 'usage_not_included',
      message: 'Your plan does not include Codex usage.',
      http_status: null,
    };
    const result = {
      turn: 1,
      outcome: 'failed' as const,
      text: null,
      supporting_evidence_refs: [],
      output_fields: {},
      terminal_candidate_ref: null,
      writer: null,
      authority_reason: null,
      failure_code: 'model_quota',
      failure_detail,
    };
    const written = { ...baseRun('run_detail0001'), latestResult: result };
    await t.store.read.runs.insert(written);
    expect((await t.store.read.runs.get(written.runId))?.latestResult?.failure_detail).toEqual(failure_detail);
    const { failure_detail: _absent, ...before } = result;
    const old = { ...baseRun('run_detail0002'), latestResult: before as unknown as RunRecord['latestResult'] };
    await t.store.read.runs.insert(old);
    expect((await t.store.read.runs.get(old.runId))?.latestResult).toEqual({ ...result, failure_detail: null });
  });

  it('compare-and-set writes only over the expected version', async () => {
    const run = baseRun('run_cas0000001');
    await t.store.read.runs.insert(run);
    expect(await t.store.read.runs.compareAndSet({ ...run, version: 2, lifecycle: 'running' }, 1)).toBe(true);
    expect(await t.store.read.runs.compareAndSet({ ...run, version: 2, lifecycle: 'cancelled' }, 1)).toBe(false);
    expect((await t.store.read.runs.get(run.runId))?.lifecycle).toBe('running');
  });

  it('concurrent transactions racing one compare-and-set: exactly one wins', async () => {
    const run = baseRun('run_race000001');
    await t.store.read.runs.insert(run);
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.store.transaction(async (uow) => {
          const current = await uow.runs.get(run.runId);
          if (current?.version !== 1) return false;
          const won = await uow.runs.compareAndSet({ ...current, version: 2, objective: `winner ${i}` }, 1);
          if (won) await uow.events.append(run.runId, 2, 1, [{ kind: 'run.waiting', data: { i } }], 1);
          return won;
        }),
      ),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(await t.store.read.events.list(run.runId, 0, 10)).toHaveLength(1);
  });

  it('a failed transaction leaves nothing behind', async () => {
    const run = baseRun('run_rollback01');
    await expect(
      t.store.transaction(async (uow) => {
        await uow.runs.insert(run);
        await uow.events.append(run.runId, 1, 1, [{ kind: 'run.started', data: {} }], 1);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await t.store.read.runs.get(run.runId)).toBeUndefined();
    expect(await t.store.read.events.list(run.runId, 0, 10)).toEqual([]);
  });

  it('events are ordered by seq and a duplicate seq is refused', async () => {
    await t.store.read.events.append(
      'run_events0001',
      1,
      1,
      [
        { kind: 'run.started', data: { a: 1 } },
        { kind: 'run.waiting', data: {} },
      ],
      5,
    );
    await expect(
      t.store.read.events.append('run_events0001', 2, 2, [{ kind: 'run.waiting', data: {} }], 6),
    ).rejects.toThrow();
    const events = await t.store.read.events.list('run_events0001', 0, 10);
    expect(events.map((e) => [e.seq, e.kind])).toEqual([
      [1, 'run.started'],
      [2, 'run.waiting'],
    ]);
    expect(events[0]).toMatchObject({ data: { a: 1 }, createdAt: 5, version: 1 });
    expect(await t.store.read.events.list('run_events0001', 1, 10)).toHaveLength(1);
  });

  it('receipts: insert is first-writer-wins, complete and outcome_unknown transitions, expiry', async () => {
    const key = { ownerHash: 'owner', operation: 'run.continue', keyHash: 'k'.repeat(64) };
    const receipt = {
      ...key,
      fingerprint: 'f',
      runId: 'run_x',
      state: 'processing' as const,
      statusCode: null,
      responseBody: null,
      leaseExpiresAt: 100,
      workerId: 'w',
      createdAt: 1,
      expiresAt: 1000,
    };
    expect(await t.store.read.receipts.insert(receipt)).toBe(true);
    expect(await t.store.read.receipts.insert({ ...receipt, fingerprint: 'other' })).toBe(false);
    expect((await t.store.read.receipts.listProcessingForRun('run_x')).map((r) => r.fingerprint)).toEqual(['f']);
    await t.store.read.receipts.markOutcomeUnknown(key);
    expect((await t.store.read.receipts.get(key))?.state).toBe('outcome_unknown');
    await t.store.read.receipts.complete(key, 200, '{"ok":true}', 'run_x');
    expect(await t.store.read.receipts.get(key)).toMatchObject({
      state: 'completed',
      statusCode: 200,
      responseBody: '{"ok":true}',
      leaseExpiresAt: null,
    });
    expect(await t.store.read.receipts.deleteExpired(999)).toBe(0);
    expect(await t.store.read.receipts.deleteExpired(1000)).toBeGreaterThanOrEqual(1);
    expect(await t.store.read.receipts.get(key)).toBeUndefined();
  });

  it('meta setIfAbsent keeps the first value (the installation secret never changes)', async () => {
    expect(await t.store.read.meta.setIfAbsent('probe', 'first')).toBe('first');
    expect(await t.store.read.meta.setIfAbsent('probe', 'second')).toBe('first');
  });

  it('migrating again is a no-op', async () => {
    await t.store.migrate();
    await t.store.migrate();
    expect(await t.store.read.meta.get('probe')).toBe('first');
  });
});
