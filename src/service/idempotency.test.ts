import { describe, expect, it } from 'vitest';
import { answerUsedKey } from './idempotency.js';

// ADR-0004 idempotency: every mutation answers a used Idempotency-Key the same way (runs, rooms,
// sources, player actions).
describe('the answer to a used Idempotency-Key', () => {
  it('replays the stored response, marked replayed', () => {
    expect(answerUsedKey({ kind: 'replay', status: 201, body: { room_id: 'room_1' } })).toEqual({
      status: 201,
      body: { room_id: 'room_1' },
      replayed: true,
    });
  });

  it('reports a first request that died as outcome_unknown, one still running as idempotency_in_progress', () => {
    expect(() => answerUsedKey({ kind: 'interrupted', runId: null })).toThrow(
      expect.objectContaining({ code: 'outcome_unknown', details: {} }),
    );
    expect(() => answerUsedKey({ kind: 'in_progress', runId: 'run_1' })).toThrow(
      expect.objectContaining({ code: 'idempotency_in_progress', details: { run_id: 'run_1' } }),
    );
  });
});
