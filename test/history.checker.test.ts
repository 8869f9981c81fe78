// Issue 36: the history checker's own tests. Hand-made histories of one run, linearizable and not:
// a checker that cannot fail proves nothing, so each forbidden behaviour a client could observe
// (a lost update, a late turn over a cancel, a version going backwards, a replay that differs, a
// self-contradicting conflict) has a history here the checker must reject.
import { describe, expect, it } from 'vitest';
import type { RunAnswer, RunInput, RunOperation } from '../scripts/history/runRegister.js';
import { runRegister } from '../scripts/history/runRegister.js';
import { checkHistory, checkObject } from '../scripts/history/search.js';
import type { Model, Spec } from '../scripts/history/model.js';

const RUN = 'run_checkerchecker01';
const NEVER = Number.POSITIVE_INFINITY;

/** A tiny language for histories: `at(invoked, returned)` then what was asked and answered. */
const history = (...ops: Omit<RunOperation, 'id' | 'object'>[]): RunOperation[] =>
  ops.map((op, id) => ({ ...op, id, object: RUN }));
const at = (invokedAt: number, returnedAt: number, client = 0) => ({ invokedAt, returnedAt, client });
const cont = (
  expectedVersion: number,
  key = `c${expectedVersion}-${Math.random()}`,
  answers: readonly string[] = [],
): RunInput => ({
  kind: 'continue',
  key,
  expectedVersion,
  answers,
  body: JSON.stringify({ expected_version: expectedVersion, instruction: 'go on', answers }),
});
const cancel = (expectedVersion: number, key = `x${expectedVersion}-${Math.random()}`): RunInput => ({
  kind: 'cancel',
  key,
  expectedVersion,
  body: JSON.stringify({ expected_version: expectedVersion, reason: 'probe' }),
});
const inspect: RunInput = { kind: 'inspect' };
const start = (key = 'start-1'): RunInput => ({ kind: 'start', key });
const created = (replayed = false): RunAnswer => ({ ...waiting(1, replayed), status: 201 });
const asking = (version: number, ...pending: string[]): RunAnswer => ({
  ...view(version, 'waiting', 'needs_input'),
  pending,
});
const view = (version: number, lifecycle: string, completion: string, replayed = false): RunAnswer => ({
  status: 200,
  replayed,
  version,
  lifecycle,
  completion,
  pending: [],
});
const refused = (code: string, currentVersion?: number, status = 409): RunAnswer => ({
  status,
  replayed: false,
  code,
  ...(currentVersion === undefined ? {} : { currentVersion }),
});
const waiting = (version: number, replayed = false) => view(version, 'waiting', 'needs_more_evidence', replayed);

const verdict = (ops: RunOperation[]) => {
  const [result] = checkHistory(runRegister(), ops, { budgetMs: 5_000 });
  return result?.verdict;
};

describe('the run register model accepts what the API allows', () => {
  it('a sequential continue, read, cancel and refused continue', () => {
    const ops = history(
      { ...at(0, 10), input: cont(1), output: waiting(3) },
      { ...at(11, 12), input: inspect, output: waiting(3) },
      { ...at(13, 14), input: cancel(3), output: view(4, 'cancelled', 'cancelled') },
      { ...at(15, 16), input: cont(4), output: refused('run_not_active', 4) },
    );
    expect(verdict(ops)).toBe('linearizable');
  });

  it('a read and a refusal in the middle of a turn see the claim (v2, running, run_busy)', () => {
    const ops = history(
      { ...at(0, 10), input: cont(1), output: waiting(3) },
      { ...at(2, 3, 1), input: inspect, output: view(2, 'running', 'pending') },
      { ...at(4, 5, 2), input: cont(2), output: refused('run_busy', 2) },
    );
    expect(verdict(ops)).toBe('linearizable');
  });

  it('a cancel between a claim and its finalize wins: the turn answers run_cancelled', () => {
    const ops = history(
      { ...at(0, 10), input: cont(1), output: refused('run_cancelled') },
      { ...at(2, 4, 1), input: cancel(2), output: view(3, 'cancelled', 'cancelled') },
      { ...at(11, 12), input: inspect, output: view(3, 'cancelled', 'cancelled') },
    );
    expect(verdict(ops)).toBe('linearizable');
  });

  it('a continue without an answer may have happened, or not', () => {
    const happened = history(
      { ...at(0, NEVER), input: cont(1), output: undefined },
      { ...at(50, 51, 1), input: inspect, output: view(3, 'waiting', 'blocked') },
    );
    const didNot = history(
      { ...at(0, NEVER), input: cont(1), output: undefined },
      { ...at(50, 51, 1), input: inspect, output: waiting(1) },
    );
    expect(verdict(happened)).toBe('linearizable');
    expect(verdict(didNot)).toBe('linearizable');
  });

  it('a retry under the same key replays the stored answer, or says in progress while the turn runs', () => {
    const ops = history(
      { ...at(0, 10), input: cont(1, 'k1'), output: waiting(3) },
      { ...at(2, 3, 1), input: cont(1, 'k1'), output: refused('idempotency_in_progress') },
      { ...at(11, 12, 1), input: cont(1, 'k1'), output: waiting(3, true) },
      { ...at(13, 14, 2), input: cont(2, 'k1'), output: refused('idempotency_conflict', undefined, 422) },
    );
    expect(verdict(ops)).toBe('linearizable');
  });

  it('a recovered turn (the server was killed) answers outcome_unknown to a retry under its key', () => {
    const ops = history(
      { ...at(0, NEVER), input: cont(1, 'k1'), output: undefined },
      { ...at(40, 41, 1), input: inspect, output: view(3, 'waiting', 'blocked') },
      { ...at(42, 43), input: cont(1, 'k1'), output: refused('outcome_unknown') },
    );
    expect(verdict(ops)).toBe('linearizable');
  });
  it('a start, its replay under the same key, and answers to the question a turn asked', () => {
    const ops = history(
      { ...at(0, 1), input: start(), output: created() },
      { ...at(2, 3, 1), input: start(), output: created(true) },
      { ...at(4, 10), input: cont(1), output: asking(3, 'q1') },
      { ...at(11, 20), input: cont(3, 'k2', ['q1']), output: waiting(5) },
      { ...at(12, 13, 1), input: inspect, output: { ...view(4, 'running', 'pending'), pending: [] } },
      { ...at(21, 22, 1), input: cont(5, 'k3', ['q1']), output: refused('invalid_answer', undefined, 400) },
    );
    expect(verdict(ops)).toBe('linearizable');
  });
});

describe('the run register model rejects what no order of the operations explains', () => {
  it('a lost update: two continues from one expected_version both succeed', () => {
    const ops = history(
      { ...at(0, 10), input: cont(1), output: waiting(3) },
      { ...at(1, 11, 1), input: cont(1), output: waiting(3) },
    );
    expect(verdict(ops)).toBe('violation');
  });

  it('a late turn over a cancel: the continue succeeds after a cancel of its running version', () => {
    const ops = history(
      { ...at(0, 10), input: cont(1), output: waiting(3) },
      { ...at(2, 4, 1), input: cancel(2), output: view(3, 'cancelled', 'cancelled') },
    );
    expect(verdict(ops)).toBe('violation');
  });

  it('an acknowledged cancel lost: a later read shows the run waiting', () => {
    const ops = history(
      { ...at(0, 2), input: cancel(1), output: view(2, 'cancelled', 'cancelled') },
      { ...at(3, 4, 1), input: inspect, output: waiting(2) },
    );
    expect(verdict(ops)).toBe('violation');
  });

  it('the version goes backwards between two reads', () => {
    const ops = history(
      { ...at(0, 10), input: cont(1), output: waiting(3) },
      { ...at(11, 12, 1), input: inspect, output: waiting(3) },
      { ...at(13, 14, 1), input: inspect, output: view(2, 'running', 'pending') },
    );
    expect(verdict(ops)).toBe('violation');
  });

  it('a replay that differs from the stored answer', () => {
    const ops = history(
      { ...at(0, 10), input: cont(1, 'k1'), output: waiting(3) },
      { ...at(11, 12), input: cont(1, 'k1'), output: waiting(5, true) },
    );
    expect(verdict(ops)).toBe('violation');
  });

  it('a replay of a key that stored nothing (its request was refused)', () => {
    const ops = history(
      { ...at(0, 1), input: cont(2, 'k1'), output: refused('version_conflict', 1) },
      { ...at(2, 3), input: cont(2, 'k1'), output: waiting(4, true) },
    );
    expect(verdict(ops)).toBe('violation');
  });

  it('a self-contradicting conflict: version_conflict naming the very version the request expected', () => {
    // What PostgreSQL answered before issue 36's fix: the loser of a compare-and-set reported the
    // version it had read, which no state of the run produces (at that version it would have won).
    const ops = history(
      { ...at(0, 10), input: cont(1), output: waiting(3) },
      { ...at(5, 12, 1), input: cancel(2), output: refused('version_conflict', 2) },
    );
    expect(verdict(ops)).toBe('violation');
  });

  it('a refusal that names a version the run has left', () => {
    const ops = history(
      { ...at(0, 10), input: cont(1), output: waiting(3) },
      { ...at(11, 12, 1), input: cont(1), output: refused('version_conflict', 1) },
    );
    expect(verdict(ops)).toBe('violation');
  });

  it('nothing explains v4 after one continue without an answer', () => {
    const ops = history(
      { ...at(0, NEVER), input: cont(1), output: undefined },
      { ...at(50, 51, 1), input: inspect, output: view(4, 'waiting', 'blocked') },
    );
    expect(verdict(ops)).toBe('violation');
  });

  it('an answer to a question nobody asked is accepted', () => {
    const ops = history(
      { ...at(0, 10), input: cont(1), output: waiting(3) },
      { ...at(11, 20), input: cont(3, 'k2', ['q1']), output: waiting(5) },
    );
    expect(verdict(ops)).toBe('violation');
  });

  it('an answered question is still pending after the claim that answered it', () => {
    const ops = history(
      { ...at(0, 10), input: cont(1), output: asking(3, 'q1') },
      { ...at(11, 20), input: cont(3, 'k2', ['q1']), output: waiting(5) },
      { ...at(12, 13, 1), input: inspect, output: { ...view(4, 'running', 'pending'), pending: ['q1'] } },
    );
    expect(verdict(ops)).toBe('violation');
  });

  it('one start key answered fresh twice (two runs, or one created twice)', () => {
    const ops = history(
      { ...at(0, 1), input: start(), output: created() },
      { ...at(2, 3, 1), input: start(), output: created() },
    );
    expect(verdict(ops)).toBe('violation');
  });

  it('a violation is explained: the operation no state can answer and the prefix that was explained', () => {
    const ops = history(
      { ...at(0, 10), input: cont(1), output: waiting(3) },
      { ...at(11, 12, 1), input: inspect, output: waiting(3) },
      { ...at(13, 14, 1), input: inspect, output: waiting(5) },
    );
    const [result] = checkHistory(runRegister(), ops);
    expect(result?.verdict).toBe('violation');
    expect(result?.explanation?.stuck.id).toBe(2);
    expect(result?.explanation?.placed.map((p) => [p.op.id, p.phase])).toEqual([
      [0, 0],
      [0, 1],
      [1, 0],
    ]);
    expect(runRegister().describe(ops[2] as RunOperation)).toContain('GET run -> 200 v5 waiting');
  });
});

/** A register of one number written and read: small enough to check the search itself. */
type RegisterInput = { readonly write: number } | { readonly read: true };
const register: Model<number, RegisterInput, number> = {
  name: 'register',
  specFor: (): Spec<number, RegisterInput, number> => ({
    initial: 0,
    phases: () => 1,
    step: (state, op) => {
      if ('write' in op.input) return [op.input.write];
      return op.output === undefined || op.output === state ? [state] : [];
    },
    key: (state) => String(state),
  }),
  describe: (op) => JSON.stringify(op.input),
};
const registerOp = (id: number, invokedAt: number, returnedAt: number, input: RegisterInput, output?: number) => ({
  id,
  object: 'r',
  client: id,
  input,
  output,
  invokedAt,
  returnedAt,
});

describe('the search', () => {
  it('orders overlapping operations any way the answers need, and no way they forbid', () => {
    const spec = register.specFor([]);
    // A write overlapping two reads that saw the old and the new value, in that real-time order.
    const ok = [
      registerOp(0, 0, 10, { write: 1 }),
      registerOp(1, 1, 2, { read: true }, 0),
      registerOp(2, 3, 4, { read: true }, 1),
    ];
    expect(checkObject(spec, 'r', ok).verdict).toBe('linearizable');
    // The reads in the other real-time order: the new value, then the old one after it returned.
    const backwards = [
      registerOp(0, 0, 10, { write: 1 }),
      registerOp(1, 1, 2, { read: true }, 1),
      registerOp(2, 3, 4, { read: true }, 0),
    ];
    expect(checkObject(spec, 'r', backwards).verdict).toBe('violation');
  });

  it('an unanswered write may land after everything answered', () => {
    const spec = register.specFor([]);
    const ops = [registerOp(0, 0, NEVER, { write: 7 }), registerOp(1, 5, 6, { read: true }, 0)];
    expect(checkObject(spec, 'r', ops).verdict).toBe('linearizable');
  });

  it('says undecided, never linearizable, when the budget runs out', () => {
    const spec = register.specFor([]);
    // Many concurrent writes of distinct values and an impossible read: the search must try them all.
    const ops = [
      ...Array.from({ length: 400 }, (_, i) => registerOp(i, 0, 100, { write: i + 1 })),
      registerOp(400, 0, 100, { read: true }, -1),
    ];
    expect(checkObject(spec, 'r', ops, { budgetMs: 50 }).verdict).toBe('undecided');
  });
});
