import { byObject, type Operation } from './history.js';
import type { Model, Spec } from './model.js';

/**
 * The linearizability search of Wing and Gong, with Lowe's memo of (linearized set, state) pairs
 * as Porcupine runs it, over a set of model states rather than one (the model is nondeterministic).
 *
 * The call and return instants of every operation phase form one list in time order. The search
 * walks it: at a call it tries to place that phase next (the model must accept the recorded answer
 * from some current state), lifting the phase's call and return out of the list; at a return whose
 * phase is still unplaced it has run out of options on this branch and backtracks to the last
 * placement. An empty list is a linearization. A phase after the first is tried only once the one
 * before it is placed. A phase whose operation never got an answer (return at Infinity) need never
 * be placed: reaching such a return means every answered phase is explained.
 */
export type Verdict = 'linearizable' | 'violation' | 'undecided';

export interface ObjectResult<I, O> {
  readonly object: string;
  readonly operations: number;
  readonly verdict: Verdict;
  /** Placements tried; the budget is on wall time. */
  readonly steps: number;
  /** For a violation: the longest explained prefix and the operation no state can answer. */
  readonly explanation?: Explanation<I, O>;
}

export interface Explanation<I, O> {
  readonly placed: readonly { readonly op: Operation<I, O>; readonly phase: number }[];
  readonly stuck: Operation<I, O>;
  readonly statesThen: readonly string[];
}

export interface SearchOptions {
  /** Wall-clock budget per object; past it the object is `undecided` (never counted as passing). */
  readonly budgetMs?: number;
}

interface Phase<I, O> {
  readonly op: Operation<I, O>;
  readonly phase: number;
  readonly index: number;
  /** The index of the phase before this one, or -1. */
  readonly before: number;
}

interface Entry<I, O> {
  readonly phase: Phase<I, O>;
  readonly isCall: boolean;
  readonly at: number;
}

const DEFAULT_BUDGET_MS = 30_000;
const CLOCK_CHECK_EVERY = 1024;

export const checkObject = <S, I, O>(
  spec: Spec<S, I, O>,
  object: string,
  history: readonly Operation<I, O>[],
  options: SearchOptions = {},
): ObjectResult<I, O> => {
  const phases = expand(spec, history);
  const entries = timeline(phases);
  const list = new LinkedEntries(entries.length);
  const returnOf = new Int32Array(phases.length);
  entries.forEach((e, i) => {
    if (!e.isCall) returnOf[e.phase.index] = i + 1;
  });
  const entryAt = (node: number): Entry<I, O> => {
    const entry = entries[node - 1];
    if (entry === undefined) throw new Error(`no timeline entry ${node}`);
    return entry;
  };
  const placed = new Uint8Array(phases.length);
  const bits = new PlacedBits(phases.length);
  const memo = new Set<string>();
  const stack: { node: number; states: Map<string, S> }[] = [];
  let states = new Map([[spec.key(spec.initial), spec.initial]]);
  let longest: Explanation<I, O> | undefined;
  const budget = options.budgetMs ?? DEFAULT_BUDGET_MS;
  const started = Date.now();
  let steps = 0;
  let node = list.first();
  const result = (verdict: Verdict, explanation?: Explanation<I, O>): ObjectResult<I, O> => ({
    object,
    operations: history.length,
    verdict,
    steps,
    ...(explanation === undefined ? {} : { explanation }),
  });

  while (node !== 0) {
    if (++steps % CLOCK_CHECK_EVERY === 0 && Date.now() - started > budget) return result('undecided');
    const entry = entryAt(node);
    const { phase } = entry;
    if (!entry.isCall) {
      // Every phase still unplaced here returns at Infinity: answered work is all explained.
      if (entry.at === Number.POSITIVE_INFINITY) return result('linearizable');
      if (longest === undefined || stack.length > longest.placed.length)
        longest = {
          placed: stack.map((s) => entryAt(s.node).phase).map((p) => ({ op: p.op, phase: p.phase })),
          stuck: phase.op,
          statesThen: [...states.keys()],
        };
      const top = stack.pop();
      if (top === undefined) return result('violation', longest);
      const undone = entryAt(top.node).phase;
      placed[undone.index] = 0;
      bits.flip(undone.index);
      list.relink(returnOf[undone.index] ?? 0);
      list.relink(top.node);
      states = top.states;
      node = list.next(top.node);
      continue;
    }
    if (phase.before >= 0 && placed[phase.before] === 0) {
      node = list.next(node);
      continue;
    }
    const after = stepAll(spec, states, phase);
    if (after.size > 0) {
      bits.flip(phase.index);
      const memoKey = `${bits.key()}#${[...after.keys()].sort().join(';')}`;
      if (!memo.has(memoKey)) {
        memo.add(memoKey);
        stack.push({ node, states });
        states = after;
        placed[phase.index] = 1;
        list.unlink(node);
        list.unlink(returnOf[phase.index] ?? 0);
        node = list.first();
        continue;
      }
      bits.flip(phase.index);
    }
    node = list.next(node);
  }
  return result('linearizable');
};

/** Checks every object of a history under `model`; objects are independent. */
export const checkHistory = <S, I, O>(
  model: Model<S, I, O>,
  history: readonly Operation<I, O>[],
  options: SearchOptions = {},
): ObjectResult<I, O>[] =>
  [...byObject(history)].map(([object, ops]) => checkObject(model.specFor(ops), object, ops, options));

const expand = <S, I, O>(spec: Spec<S, I, O>, history: readonly Operation<I, O>[]): Phase<I, O>[] => {
  const phases: Phase<I, O>[] = [];
  for (const op of history) {
    const count = spec.phases(op);
    for (let phase = 0; phase < count; phase++)
      phases.push({ op, phase, index: phases.length, before: phase === 0 ? -1 : phases.length - 1 });
  }
  return phases;
};

/** Calls and returns in time order; at one instant calls first, so touching intervals overlap. */
const timeline = <I, O>(phases: readonly Phase<I, O>[]): Entry<I, O>[] =>
  phases
    .flatMap((phase) => [
      { phase, isCall: true, at: phase.op.invokedAt },
      { phase, isCall: false, at: phase.op.returnedAt },
    ])
    .sort((a, b) => a.at - b.at || Number(b.isCall) - Number(a.isCall));

const stepAll = <S, I, O>(spec: Spec<S, I, O>, states: ReadonlyMap<string, S>, phase: Phase<I, O>): Map<string, S> => {
  const after = new Map<string, S>();
  for (const state of states.values())
    for (const next of spec.step(state, phase.op, phase.phase)) after.set(spec.key(next), next);
  return after;
};

/** Entries 1..n in a doubly linked list with head 0, so lifting one out and back is O(1). */
class LinkedEntries {
  private readonly prev: Int32Array;
  private readonly nextOf: Int32Array;
  constructor(size: number) {
    this.prev = new Int32Array(size + 1);
    this.nextOf = new Int32Array(size + 1);
    for (let i = 0; i <= size; i++) {
      this.prev[i] = i - 1;
      this.nextOf[i] = i < size ? i + 1 : 0;
    }
  }
  first(): number {
    return this.next(0);
  }
  next(node: number): number {
    return this.nextOf[node] ?? 0;
  }
  unlink(node: number): void {
    const before = this.prev[node] ?? 0;
    const after = this.next(node);
    this.nextOf[before] = after;
    if (after !== 0) this.prev[after] = before;
  }
  /** Undoes `unlink`; relinking in the reverse order of unlinking restores the list. */
  relink(node: number): void {
    const after = this.next(node);
    this.nextOf[this.prev[node] ?? 0] = node;
    if (after !== 0) this.prev[after] = node;
  }
}

/** Which phases are placed, as a compact memo key. */
class PlacedBits {
  private readonly words: Uint32Array;
  constructor(size: number) {
    this.words = new Uint32Array(Math.ceil(size / 32));
  }
  flip(index: number): void {
    const word = index >>> 5;
    this.words[word] = (this.words[word] ?? 0) ^ (1 << (index & 31));
  }
  key(): string {
    return Buffer.from(this.words.buffer).toString('base64');
  }
}
