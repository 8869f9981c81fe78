import type { Operation } from './history.js';
import type { Model, Spec } from './model.js';

/**
 * The bindings of one cell: a member's runs, its rooms and its chats, as docs/rooms.md and
 * docs/console.md define them. Binds touch a run and a room, claims a run and a chat, a removal a
 * room and every binding in it, so the cell (not a run, a room or a chat) is the object the checker
 * searches alone; cells share nothing.
 *
 * - A run has at most one active run-room binding [WD-09]. A bind by a current member who accepted
 *   the consent creates one (`201`, a new ref) when the run has none, returns the active one (`200`,
 *   its ref) for the same room, and is `409 room_binding_conflict` for another room; a removed
 *   member is `404 not_found`, a member who has not accepted the consent `409 room_consent_required`.
 * - Removing the member (`303`; `404` once removed) revokes its run bindings in that room in the
 *   same instant [D-09, BRE-04]; an invite (`303`; `400` for a current member) seats it again
 *   without consent, and accepting the consent (`303`; `404` for a removed member) lets it bind.
 * - A chat has at most one observer claim that may be claimed: issuing one (`201`) retires the
 *   chat's unclaimed ones and claimed ones whose run-chat binding is gone, and is
 *   `409 chat_binding_conflict` while a run is bound to the chat [OBS-16]. A claim consumes a
 *   pending handle once (`chat_claim_not_found` otherwise) and binds the run to the chat, unless the
 *   run or the chat has an active chat binding (`409 chat_binding_conflict`, the handle stays
 *   unused) [WD-09].
 * - Withdrawal by ref is `revoked` for an active binding, then `already_revoked` [WD-03]; a revoked
 *   binding never comes back [WD-07]. A disconnect revokes the observer and its run-chat binding.
 * - Reads: the subject export lists exactly the active bindings, each once, with its run and room or
 *   chat; an observer's status is `pending_claim`, `active` (claimed, its run-chat binding active) or
 *   `revoked`.
 * - An operation without an answer may or may not have taken effect; a binding it made has a ref
 *   the model learns from the first read that shows it.
 */
export type BindingsInput =
  | { readonly kind: 'bind'; readonly run: string; readonly room: string }
  | { readonly kind: 'unbind'; readonly ref: string }
  | { readonly kind: 'remove' | 'join' | 'consent'; readonly room: string }
  | { readonly kind: 'issue'; readonly chat: string }
  | { readonly kind: 'claim'; readonly observer: string; readonly chat: string; readonly run: string }
  | { readonly kind: 'unbindChat'; readonly ref: string }
  | { readonly kind: 'disconnect' | 'inspectObserver'; readonly observer: string }
  | { readonly kind: 'listRunBindings' | 'listChatBindings' };

/** One exported binding row: `place` is the room of a run binding, the chat of a chat binding. */
export interface BindingRow {
  readonly ref: string;
  readonly run: string;
  readonly place: string;
  readonly active: boolean;
}

export interface BindingsAnswer {
  readonly status: number;
  readonly code?: string;
  /** The binding ref a bind or claim answered, or the observer ref an issue answered. */
  readonly ref?: string;
  readonly revocation?: string;
  readonly observerStatus?: string;
  readonly rows?: readonly BindingRow[];
}

export type BindingsOperation = Operation<BindingsInput, BindingsAnswer>;

type Membership = 'consented' | 'joined' | 'removed';

/** The run's active room binding; `ref` is null for one an unanswered bind may have made. */
interface RunBinding {
  readonly room: string;
  readonly ref: string | null;
}

/** An observer claim not yet revoked: pending (`run` null) or claimed, its run-chat binding active or not. */
interface Observer {
  readonly chat: string;
  readonly run: string | null;
  readonly rcb: string | null;
  readonly bound: boolean;
}

export interface BindingsState {
  readonly members: ReadonlyMap<string, Membership>;
  readonly runBindings: ReadonlyMap<string, RunBinding>;
  readonly observers: ReadonlyMap<string, Observer>;
}

/** A cell as the workload sets it up: the member consented in every room, nothing bound. */
export const freshCell = (rooms: readonly string[]): BindingsState => ({
  members: new Map(rooms.map((room) => [room, 'consented'])),
  runBindings: new Map(),
  observers: new Map(),
});

export const bindingsModel = (initial: BindingsState): Model<BindingsState, BindingsInput, BindingsAnswer> => ({
  name: 'run-room and run-chat bindings',
  specFor: (history) => bindingsSpec(initial, createdRefs(history)),
  describe: describeBindingsOperation,
});

/** Refs an answered bind or claim created: any other ref a read shows was made by an unanswered one. */
const createdRefs = (history: readonly BindingsOperation[]): Set<string> => {
  const refs = new Set<string>();
  for (const { input, output } of history)
    if ((input.kind === 'bind' || input.kind === 'claim') && output?.status === 201 && output.ref !== undefined)
      refs.add(output.ref);
  return refs;
};

const bindingsSpec = (
  initial: BindingsState,
  created: ReadonlySet<string>,
): Spec<BindingsState, BindingsInput, BindingsAnswer> => ({
  initial,
  phases: () => 1,
  step: (state, op) => {
    const outcomes = effects(state, op.input, created);
    const answer = op.output;
    if (answer === undefined) return [state, ...outcomes.flatMap((o) => (o.changes ? [o.state] : []))];
    return outcomes.flatMap((o) => (o.fits(answer) ? [o.resolve?.(answer) ?? o.state] : []));
  },
  key: (s) =>
    [
      sorted(s.members).map(([room, m]) => `${room}=${m}`),
      sorted(s.runBindings).map(([run, b]) => `${run}>${b.room}:${b.ref ?? '?'}`),
      sorted(s.observers).map(([ref, o]) => `${ref}@${o.chat}:${o.run ?? '-'}:${o.rcb ?? '?'}:${o.bound ? 1 : 0}`),
    ]
      .map((part) => part.join(','))
      .join('|'),
});

const sorted = <V>(map: ReadonlyMap<string, V>): [string, V][] => [...map].sort(([a], [b]) => a.localeCompare(b));

/**
 * What the operation may do from `state`: each outcome is an answer it would give (`fits`) and the
 * state after it; `changes` says whether an unanswered operation could have left that state.
 * `resolve` builds the state from the answer when it names something new (a ref).
 */
interface Outcome {
  readonly fits: (answer: BindingsAnswer) => boolean;
  readonly state: BindingsState;
  readonly changes: boolean;
  readonly resolve?: (answer: BindingsAnswer) => BindingsState | undefined;
}

const refused =
  (status: number, code?: string) =>
  (a: BindingsAnswer): boolean =>
    a.status === status && (code === undefined || a.code === code);

const keep = (state: BindingsState, fits: Outcome['fits']): Outcome => ({ fits, state, changes: false });

const effects = (s: BindingsState, input: BindingsInput, created: ReadonlySet<string>): Outcome[] => {
  switch (input.kind) {
    case 'bind':
      return [bind(s, input.run, input.room)];
    case 'unbind':
      return unbind(s, input.ref, created);
    case 'remove':
    case 'join':
    case 'consent':
      return [membership(s, input.kind, input.room)];
    case 'issue':
      return [issue(s, input.chat)];
    case 'claim':
      return [claim(s, input.observer, input.run)];
    case 'unbindChat':
      return unbindChat(s, input.ref, created);
    case 'disconnect':
      return [disconnect(s, input.observer)];
    case 'inspectObserver':
      return [keep(s, (a) => a.status === 200 && a.observerStatus === observerStatus(s, input.observer))];
    case 'listRunBindings':
      return [listed(s, created, runRows(s))];
    case 'listChatBindings':
      return [listed(s, created, chatRows(s))];
  }
};

const bind = (s: BindingsState, run: string, room: string): Outcome => {
  const member = s.members.get(room) ?? 'removed';
  if (member === 'removed') return keep(s, refused(404, 'not_found'));
  if (member === 'joined') return keep(s, refused(409, 'room_consent_required'));
  const active = s.runBindings.get(run);
  if (active === undefined)
    return {
      fits: (a) => a.status === 201 && a.ref !== undefined,
      state: withRunBinding(s, run, { room, ref: null }),
      changes: true,
      resolve: (a) => withRunBinding(s, run, { room, ref: a.ref ?? null }),
    };
  if (active.room !== room) return keep(s, refused(409, 'room_binding_conflict'));
  if (active.ref !== null) return keep(s, (a) => a.status === 200 && a.ref === active.ref);
  return {
    fits: (a) => a.status === 200 && a.ref !== undefined,
    state: s,
    changes: false,
    resolve: (a) => withRunBinding(s, run, { room, ref: a.ref ?? null }),
  };
};

const withRunBinding = (s: BindingsState, run: string, binding: RunBinding | undefined): BindingsState => {
  const runBindings = new Map(s.runBindings);
  if (binding === undefined) runBindings.delete(run);
  else runBindings.set(run, binding);
  return { ...s, runBindings };
};

const revokedAnswer =
  (revocation: 'revoked' | 'already_revoked') =>
  (a: BindingsAnswer): boolean =>
    a.status === 200 && a.revocation === revocation;

/** An unknown ref may be a binding an unanswered bind made: each such binding is a candidate. */
const unbind = (s: BindingsState, ref: string, created: ReadonlySet<string>): Outcome[] => {
  const known = [...s.runBindings].find(([, b]) => b.ref === ref);
  if (known !== undefined)
    return [{ fits: revokedAnswer('revoked'), state: withRunBinding(s, known[0], undefined), changes: true }];
  const phantoms = created.has(ref) ? [] : [...s.runBindings].filter(([, b]) => b.ref === null);
  return [
    keep(s, revokedAnswer('already_revoked')),
    ...phantoms.map(([run]) => ({
      fits: revokedAnswer('revoked'),
      state: withRunBinding(s, run, undefined),
      changes: true,
    })),
  ];
};

const membership = (s: BindingsState, kind: 'remove' | 'join' | 'consent', room: string): Outcome => {
  const current = (s.members.get(room) ?? 'removed') !== 'removed';
  const set = (m: Membership): BindingsState => ({ ...s, members: new Map(s.members).set(room, m) });
  const done = (state: BindingsState): Outcome => ({ fits: refused(303), state, changes: true });
  if (kind === 'join') return current ? keep(s, refused(400)) : done(set('joined'));
  if (!current) return keep(s, refused(404));
  if (kind === 'consent') return done(set('consented'));
  const removed = set('removed');
  const runBindings = new Map([...s.runBindings].filter(([, b]) => b.room !== room));
  return done({ ...removed, runBindings });
};

const withObservers = (s: BindingsState, edit: (observers: Map<string, Observer>) => void): BindingsState => {
  const observers = new Map(s.observers);
  edit(observers);
  return { ...s, observers };
};

const issue = (s: BindingsState, chat: string): Outcome => {
  const ofChat = [...s.observers].filter(([, o]) => o.chat === chat);
  if (ofChat.some(([, o]) => o.bound)) return keep(s, refused(409, 'chat_binding_conflict'));
  const retired = withObservers(s, (observers) => {
    for (const [ref] of ofChat) observers.delete(ref);
  });
  return {
    fits: (a) => a.status === 201 && a.ref !== undefined,
    state: retired,
    changes: true,
    resolve: (a) =>
      a.ref === undefined
        ? undefined
        : withObservers(retired, (observers) =>
            observers.set(a.ref ?? '', { chat, run: null, rcb: null, bound: false }),
          ),
  };
};

const claim = (s: BindingsState, observer: string, run: string): Outcome => {
  const pending = s.observers.get(observer);
  if (pending === undefined || pending.run !== null) return keep(s, refused(404, 'chat_claim_not_found'));
  const taken = [...s.observers.values()].some((o) => o.bound && (o.run === run || o.chat === pending.chat));
  if (taken) return keep(s, refused(409, 'chat_binding_conflict'));
  const claimed = (rcb: string | null): BindingsState =>
    withObservers(s, (observers) => observers.set(observer, { ...pending, run, rcb, bound: true }));
  return {
    fits: (a) => a.status === 201 && a.ref !== undefined,
    state: claimed(null),
    changes: true,
    resolve: (a) => claimed(a.ref ?? null),
  };
};

const unbindChat = (s: BindingsState, ref: string, created: ReadonlySet<string>): Outcome[] => {
  const release = (observer: string, o: Observer): Outcome => ({
    fits: revokedAnswer('revoked'),
    state: withObservers(s, (observers) => observers.set(observer, { ...o, rcb: ref, bound: false })),
    changes: true,
  });
  const known = [...s.observers].find(([, o]) => o.rcb === ref && o.bound);
  if (known !== undefined) return [release(...known)];
  const phantoms = created.has(ref) ? [] : [...s.observers].filter(([, o]) => o.bound && o.rcb === null);
  return [keep(s, revokedAnswer('already_revoked')), ...phantoms.map(([observer, o]) => release(observer, o))];
};

const disconnect = (s: BindingsState, observer: string): Outcome =>
  s.observers.has(observer)
    ? {
        fits: revokedAnswer('revoked'),
        state: withObservers(s, (observers) => observers.delete(observer)),
        changes: true,
      }
    : keep(s, revokedAnswer('already_revoked'));

const observerStatus = (s: BindingsState, observer: string): string => {
  const o = s.observers.get(observer);
  if (o === undefined) return 'revoked';
  if (o.run === null) return 'pending_claim';
  return o.bound ? 'active' : 'revoked';
};

/** An active binding as the model knows it; `ref` null until a read names it; `claim` edits the state. */
interface ModelRow {
  readonly run: string;
  readonly place: string;
  readonly ref: string | null;
  readonly learn: (state: BindingsState, ref: string) => BindingsState;
}

const runRows = (s: BindingsState): ModelRow[] =>
  [...s.runBindings].map(([run, b]) => ({
    run,
    place: b.room,
    ref: b.ref,
    learn: (state, ref) => withRunBinding(state, run, { ...b, ref }),
  }));

const chatRows = (s: BindingsState): ModelRow[] =>
  [...s.observers].flatMap(([observer, o]) =>
    o.bound && o.run !== null
      ? [
          {
            run: o.run,
            place: o.chat,
            ref: o.rcb,
            learn: (state: BindingsState, ref: string) =>
              withObservers(state, (observers) => observers.set(observer, { ...o, rcb: ref })),
          },
        ]
      : [],
  );

/**
 * A list fits when its active rows are exactly the model's active bindings: one row each, same run
 * and room or chat, same ref (a ref the model does not know yet must be one no answered bind made).
 */
const listed = (s: BindingsState, created: ReadonlySet<string>, expected: readonly ModelRow[]): Outcome => {
  const match = (a: BindingsAnswer): BindingsState | undefined => {
    if (a.status !== 200 || a.rows === undefined) return undefined;
    const active = a.rows.filter((r) => r.active);
    if (active.length !== expected.length) return undefined;
    let state = s;
    for (const row of expected) {
      const found = active.filter((r) => r.run === row.run && r.place === row.place);
      const only = found.length === 1 ? found[0] : undefined;
      if (only === undefined) return undefined;
      if (row.ref !== null && only.ref !== row.ref) return undefined;
      if (row.ref === null) {
        if (created.has(only.ref)) return undefined;
        state = row.learn(state, only.ref);
      }
    }
    return state;
  };
  return { fits: (a) => match(a) !== undefined, state: s, changes: false, resolve: match };
};

export const describeBindingsOperation = (op: BindingsOperation): string => {
  const { input, output } = op;
  const request = Object.entries(input)
    .map(([k, v]) => (k === 'kind' ? String(v) : `${k}=${String(v).slice(-10)}`))
    .join(' ');
  const returned = op.returnedAt === Number.POSITIVE_INFINITY ? '∞' : op.returnedAt.toFixed(1);
  const rows = output?.rows
    ?.filter((r) => r.active)
    .map((r) => `${r.ref.slice(-6)}:${r.run.slice(-6)}>${r.place.slice(-6)}`)
    .join(',');
  const answer =
    output === undefined
      ? 'no answer'
      : [
          output.status,
          output.code,
          output.ref?.slice(-10),
          output.revocation,
          output.observerStatus,
          rows === undefined ? undefined : `active[${rows}]`,
        ]
          .filter((part) => part !== undefined)
          .join(' ');
  return `#${op.id} client ${op.client} [${op.invokedAt.toFixed(1)}..${returned}] ${request} -> ${answer}`;
};
