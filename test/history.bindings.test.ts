// Issue 36: histories of concurrent clients binding runs to rooms and chats, checked for
// linearizability against the sequential bindings model (scripts/history/bindings.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type BindingsAnswer,
  type BindingsInput,
  type BindingsOperation,
  bindingsModel,
  describeBindingsOperation,
  freshCell,
} from '../scripts/history/bindings.js';
import { recordBindings } from '../scripts/history/bindingsScenario.js';
import type { Cell } from '../scripts/history/bindingsWorkload.js';
import { checkHistory } from '../scripts/history/search.js';
import { ceilingFor } from './support/ceilings.js';
import { storeFlavours } from './support/stores.js';

const R1 = 'room_000000000000000000000001';
const R2 = 'room_000000000000000000000002';
const model = bindingsModel(freshCell([R1, R2]));

/** A hand-made history: each entry is [client, input, answer (undefined: none), invokedAt, returnedAt]. */
const history = (
  ...entries: [number, BindingsInput, BindingsAnswer | undefined, number, number][]
): BindingsOperation[] =>
  entries.map(([client, input, output, invokedAt, returnedAt], id) => ({
    id,
    object: 'cell',
    client,
    input,
    output,
    invokedAt,
    returnedAt,
  }));

const verdict = (ops: readonly BindingsOperation[]) => {
  const [result] = checkHistory(model, ops);
  return result?.verdict;
};

const row = (ref: string, run: string, place: string, active = true) => ({ ref, run, place, active });

describe('the bindings model rejects what the spec forbids', () => {
  it('OBS-16, WD-09: two runs bound to one chat at once (two claims of two overlapping handles both succeed)', () => {
    const claims = history(
      [0, { kind: 'issue', chat: 'c1' }, { status: 201, ref: 'aob_1' }, 0, 2],
      [1, { kind: 'issue', chat: 'c1' }, { status: 201, ref: 'aob_2' }, 1, 3],
      [0, { kind: 'claim', observer: 'aob_1', chat: 'c1', run: 'r1' }, { status: 201, ref: 'rcb_1' }, 4, 5],
      [1, { kind: 'claim', observer: 'aob_2', chat: 'c1', run: 'r2' }, { status: 201, ref: 'rcb_2' }, 6, 7],
    );
    expect(verdict(claims)).toBe('violation');
    // Without the second claim's success, the same overlapping issues are fine.
    expect(verdict(claims.slice(0, 3))).toBe('linearizable');
  });

  it('OBS-16, WD-09: a read listing two active run-chat bindings of one chat', () => {
    const listed = history(
      [0, { kind: 'issue', chat: 'c1' }, { status: 201, ref: 'aob_1' }, 0, 1],
      [0, { kind: 'claim', observer: 'aob_1', chat: 'c1', run: 'r1' }, { status: 201, ref: 'rcb_1' }, 2, 3],
      [
        1,
        { kind: 'listChatBindings' },
        { status: 200, rows: [row('rcb_1', 'r1', 'c1'), row('rcb_9', 'r2', 'c1')] },
        4,
        5,
      ],
    );
    expect(verdict(listed)).toBe('violation');
  });

  it('BRE-04, D-09: a removed member’s run binding still listed as active after the removal returned', () => {
    const ops = history(
      [0, { kind: 'bind', run: 'r1', room: R1 }, { status: 201, ref: 'rrb_1' }, 0, 1],
      [1, { kind: 'remove', room: R1 }, { status: 303 }, 2, 3],
      [0, { kind: 'listRunBindings' }, { status: 200, rows: [row('rrb_1', 'r1', R1)] }, 4, 5],
    );
    expect(verdict(ops)).toBe('violation');
    // Overlapping the removal, the same read may have come first.
    expect(verdict(history(...ops.map((o, i) => tuple(o, i === 2 ? 2.5 : o.invokedAt))))).toBe('linearizable');
  });

  it('RREST-04, WD-09: a bind that answered 201 but never shows up in a later read', () => {
    const ops = history(
      [0, { kind: 'bind', run: 'r1', room: R1 }, { status: 201, ref: 'rrb_1' }, 0, 1],
      [1, { kind: 'listRunBindings' }, { status: 200, rows: [] }, 2, 3],
    );
    expect(verdict(ops)).toBe('violation');
    const revokedUnasked = history(
      [0, { kind: 'bind', run: 'r1', room: R1 }, { status: 201, ref: 'rrb_1' }, 0, 1],
      [1, { kind: 'listRunBindings' }, { status: 200, rows: [row('rrb_1', 'r1', R1, false)] }, 2, 3],
    );
    expect(verdict(revokedUnasked)).toBe('violation');
  });

  it('WD-09: two concurrent binds of one run to two rooms that both succeed', () => {
    const ops = history(
      [0, { kind: 'bind', run: 'r1', room: R1 }, { status: 201, ref: 'rrb_1' }, 0, 3],
      [1, { kind: 'bind', run: 'r1', room: R2 }, { status: 201, ref: 'rrb_2' }, 1, 2],
    );
    expect(verdict(ops)).toBe('violation');
  });
});

/** An operation as a history() entry again, with another invocation instant. */
const tuple = (
  o: BindingsOperation,
  invokedAt: number,
): [number, BindingsInput, BindingsAnswer | undefined, number, number] => [
  o.client,
  o.input,
  o.output,
  invokedAt,
  o.returnedAt,
];

describe('the bindings model accepts overlapping operations the spec allows', () => {
  it('WD-09, BRE-04, D-09, WD-03, WD-07: a raced bind, a removal during a read, a rejoin, an unanswered bind found by a read', () => {
    const ops = history(
      [0, { kind: 'bind', run: 'r1', room: R1 }, { status: 201, ref: 'rrb_1' }, 0, 10],
      [1, { kind: 'bind', run: 'r1', room: R2 }, { status: 409, code: 'room_binding_conflict' }, 1, 9],
      [2, { kind: 'remove', room: R1 }, { status: 303 }, 2, 12],
      [3, { kind: 'listRunBindings' }, { status: 200, rows: [row('rrb_1', 'r1', R1)] }, 3, 11],
      [0, { kind: 'listRunBindings' }, { status: 200, rows: [row('rrb_1', 'r1', R1, false)] }, 13, 14],
      [1, { kind: 'bind', run: 'r1', room: R1 }, { status: 404, code: 'not_found' }, 13, 14],
      [2, { kind: 'unbind', ref: 'rrb_1' }, { status: 200, revocation: 'already_revoked' }, 15, 16],
      [3, { kind: 'join', room: R1 }, { status: 303 }, 15, 16],
      [3, { kind: 'bind', run: 'r2', room: R1 }, { status: 409, code: 'room_consent_required' }, 17, 18],
      [3, { kind: 'consent', room: R1 }, { status: 303 }, 19, 20],
      [0, { kind: 'bind', run: 'r2', room: R2 }, undefined, 21, Number.POSITIVE_INFINITY],
      [
        1,
        { kind: 'listRunBindings' },
        { status: 200, rows: [row('rrb_1', 'r1', R1, false), row('rrb_x', 'r2', R2)] },
        22,
        23,
      ],
      [1, { kind: 'unbind', ref: 'rrb_x' }, { status: 200, revocation: 'revoked' }, 24, 25],
    );
    expect(verdict(ops)).toBe('linearizable');
  });

  it('OBS-12, OBS-16, WD-03, WD-08: a raced claim of one handle, inspections and reads during the claim, withdrawal, a fresh handle', () => {
    const ops = history(
      [0, { kind: 'issue', chat: 'c1' }, { status: 201, ref: 'aob_1' }, 0, 2],
      [0, { kind: 'claim', observer: 'aob_1', chat: 'c1', run: 'r1' }, { status: 201, ref: 'rcb_1' }, 3, 6],
      [
        1,
        { kind: 'claim', observer: 'aob_1', chat: 'c1', run: 'r2' },
        { status: 404, code: 'chat_claim_not_found' },
        4,
        5,
      ],
      [2, { kind: 'inspectObserver', observer: 'aob_1' }, { status: 200, observerStatus: 'active' }, 5, 7],
      [3, { kind: 'listChatBindings' }, { status: 200, rows: [row('rcb_1', 'r1', 'c1')] }, 5.5, 8],
      [1, { kind: 'issue', chat: 'c1' }, { status: 409, code: 'chat_binding_conflict' }, 8.5, 8.9],
      [0, { kind: 'unbindChat', ref: 'rcb_1' }, { status: 200, revocation: 'revoked' }, 9, 10],
      [1, { kind: 'issue', chat: 'c1' }, { status: 201, ref: 'aob_2' }, 11, 12],
      [2, { kind: 'inspectObserver', observer: 'aob_1' }, { status: 200, observerStatus: 'revoked' }, 11.5, 14],
      [3, { kind: 'claim', observer: 'aob_2', chat: 'c1', run: 'r1' }, { status: 201, ref: 'rcb_2' }, 15, 16],
      [0, { kind: 'disconnect', observer: 'aob_2' }, { status: 200, revocation: 'revoked' }, 17, 18],
      [1, { kind: 'unbindChat', ref: 'rcb_2' }, { status: 200, revocation: 'already_revoked' }, 19, 20],
      [
        2,
        { kind: 'listChatBindings' },
        { status: 200, rows: [row('rcb_1', 'r1', 'c1', false), row('rcb_2', 'r1', 'c1', false)] },
        19,
        20,
      ],
    );
    expect(verdict(ops)).toBe('linearizable');
  });
});

const CELLS = 2;
const CLIENTS_PER_CELL = 3;
const DURATION_MS = 5_000;
const SEED = 36;

describe.each(storeFlavours())('a recorded bindings history on $name', (flavour) => {
  let recorded: { history: BindingsOperation[]; cells: Cell[] };

  beforeAll(
    async () => {
      recorded = await recordBindings(flavour, {
        cells: CELLS,
        clientsPerCell: CLIENTS_PER_CELL,
        durationMs: DURATION_MS,
        seed: SEED,
      });
    },
    ceilingFor(0, 60_000),
  );

  it('WD-09, OBS-16, BRE-04, D-09: every cell’s history is linearizable, and it raced binds, claims and removals', {
    timeout: ceilingFor(0),
  }, async () => {
    const { history: ops, cells } = recorded;
    const started = Date.now();
    const results = cells.map((cell) => {
      const [result] = checkHistory(
        bindingsModel(freshCell(cell.rooms)),
        ops.filter((o) => o.object === cell.name),
      );
      return result;
    });
    const checkMs = Date.now() - started;
    for (const result of results) {
      const stuck = result?.explanation?.stuck;
      const why = result?.explanation?.placed.slice(-12).map((p) => describeBindingsOperation(p.op));
      expect(
        result?.verdict,
        [...(why ?? []), stuck === undefined ? '' : `stuck: ${describeBindingsOperation(stuck)}`].join('\n'),
      ).toBe('linearizable');
    }
    const answered = (kind: BindingsInput['kind'], status: number, code?: string) =>
      ops.filter(
        (o) => o.input.kind === kind && o.output?.status === status && (code === undefined || o.output.code === code),
      );
    const figures = {
      flavour: flavour.name,
      operations: ops.length,
      unanswered: ops.filter((o) => o.output === undefined).length,
      checkMs,
      binds: answered('bind', 201).length,
      conflicts: answered('bind', 409, 'room_binding_conflict').length,
      removals: answered('remove', 303).length,
      rejoins: answered('join', 303).length,
      claims: answered('claim', 201).length,
      claimConflicts: answered('claim', 409, 'chat_binding_conflict').length + answered('claim', 404).length,
      reads: answered('listRunBindings', 200).length,
    };
    console.info(`history.bindings ${JSON.stringify(figures)}`);
    expect(ops.length).toBeGreaterThan(200);
    expect(figures.conflicts).toBeGreaterThan(0);
    expect(figures.removals).toBeGreaterThan(0);
    expect(figures.rejoins).toBeGreaterThan(0);
    expect(figures.claims).toBeGreaterThan(0);
    expect(figures.claimConflicts).toBeGreaterThan(0);
    // A refused bind that overlapped a successful one: the race the single active slot settles.
    const raced = answered('bind', 409, 'room_binding_conflict').some((refusedOp) =>
      answered('bind', 201).some(
        (won) =>
          won.object === refusedOp.object &&
          won.input.kind === 'bind' &&
          refusedOp.input.kind === 'bind' &&
          won.input.run === refusedOp.input.run &&
          won.invokedAt < refusedOp.returnedAt &&
          refusedOp.invokedAt < won.returnedAt,
      ),
    );
    expect(raced).toBe(true);
    // Reads that saw bindings, and reads after a removal that saw them revoked.
    expect(ops.some((o) => o.output?.rows?.some((r) => r.active))).toBe(true);
    expect(ops.some((o) => o.input.kind === 'listRunBindings' && o.output?.rows?.some((r) => !r.active))).toBe(true);
  });
});
