import type { BindingsAnswer, BindingsInput, BindingsOperation } from './bindings.js';
import {
  bindRequest,
  browserExchange,
  type CellIdentities,
  claimRequest,
  consoleRequest,
  exportRequest,
  inviteToken,
  issueRequest,
  observerRequest,
  rowsOf,
  toBindingsOutcome,
  withdrawRequest,
} from './bindingsHttp.js';
import { exchange } from './http.js';
import { type Random, sleep } from './random.js';
import { Recorder, type Outcome } from './recorder.js';

/** One cell: an owner's rooms with one member in each, the member's runs and chats. The checker's object. */
export interface Cell {
  readonly name: string;
  readonly rooms: readonly string[];
  readonly runs: readonly string[];
  readonly chats: readonly string[];
  readonly who: CellIdentities;
}

export interface CellShape {
  readonly rooms: number;
  readonly runs: number;
  readonly chats: number;
}

export interface BindingsWorkloadOptions {
  readonly clientsPerCell: number;
  readonly durationMs: number;
  readonly random: Random;
}

/**
 * Over HTTP, before anything is recorded: the owner creates the rooms (with an Idempotency-Key),
 * invites the member to each, the member joins and accepts the consent, starts its runs (with an
 * Idempotency-Key) and creates its chats. The model's initial state is `freshCell(cell.rooms)`.
 */
export const setUpCell = async (name: string, who: CellIdentities, shape: CellShape, random: Random): Promise<Cell> => {
  const created = async (path: string, token: string, body: unknown, field: string): Promise<string> => {
    const answer = await exchange(who.baseUrl, {
      method: 'POST',
      path,
      token,
      idempotencyKey: `${name}-${random.tag()}${random.tag()}`,
      body,
      timeoutMs: who.timeoutMs,
    });
    const value = answer.kind === 'response' ? dig(answer.body, field) : undefined;
    if (typeof value !== 'string') throw new Error(`${name}: POST ${path} did not answer ${field}`);
    return value;
  };
  const rooms: string[] = [];
  for (let i = 0; i < shape.rooms; i++) {
    const room = await created('/api/v1/rooms', who.ownerToken, { title: `${name} room ${i}` }, 'room.room_id');
    const token = await inviteToken(who, room);
    const joined = await consoleRequest(who, 'join', room, token);
    const consented = await consoleRequest(who, 'consent', room);
    if (!isStatus(joined, 303) || !isStatus(consented, 303))
      throw new Error(`${name}: the member could not join ${room}`);
    rooms.push(room);
  }
  const runs: string[] = [];
  for (let i = 0; i < shape.runs; i++)
    runs.push(await created('/api/v1/agent-runs', who.memberToken, { objective: `${name} run ${i}` }, 'run_id'));
  const chats: string[] = [];
  for (let i = 0; i < shape.chats; i++) {
    const answer = await browserExchange(who, who.memberCookie, 'POST', '/account/chats', {
      form: { title: `${name} chat ${i}` },
    });
    const chat = answer.kind === 'response' ? answer.headers.get('location')?.split('/').at(-1) : undefined;
    if (chat === undefined) throw new Error(`${name}: the member could not create a chat`);
    chats.push(chat);
  }
  return { name, rooms, runs, chats, who };
};

const dig = (body: unknown, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>(
      (v, k) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined),
      body,
    );

const isStatus = (outcome: Outcome<BindingsAnswer>, status: number): boolean =>
  outcome.kind === 'answer' && outcome.output.status === status;

/**
 * Concurrent clients per cell, until the deadline: binds (a third of them raced by a twin for the
 * same run, to another room or the same one), withdrawals of refs seen, the owner removing the
 * member and the member joining again and consenting, claim handles issued and claimed (sometimes
 * one handle for two runs at once), chat withdrawals, disconnects, and reads: observer inspection
 * and the subject export, recorded as two reads (one per table query) over the same interval.
 */
export const bindingsWorkload = async (
  cells: readonly Cell[],
  options: BindingsWorkloadOptions,
): Promise<BindingsOperation[]> => {
  const recorder = new Recorder<BindingsInput, BindingsAnswer>();
  const deadline = Date.now() + options.durationMs;
  await Promise.all(
    cells.flatMap((cell) => {
      const driver = new CellDriver(cell, recorder, options.random);
      return Array.from({ length: options.clientsPerCell }, (_, id) => driver.client(id, deadline));
    }),
  );
  return recorder.history();
};

interface KnownObserver {
  readonly ref: string;
  readonly chat: string;
  readonly handle: string;
}

class CellDriver {
  /** What the clients of the cell have learned, shared, so they act on each other's bindings. */
  private readonly runRefs = new Set<string>();
  private readonly chatRefs = new Set<string>();
  private readonly observers: KnownObserver[] = [];
  private readonly removed = new Set<string>();

  constructor(
    private readonly cell: Cell,
    private readonly recorder: Recorder<BindingsInput, BindingsAnswer>,
    private readonly random: Random,
  ) {}

  async client(id: number, deadline: number): Promise<void> {
    while (Date.now() < deadline) {
      const p = this.random.next();
      if (p < 0.28) await this.bind(id);
      else if (p < 0.36) await this.withdraw(id, 'unbind', this.runRefs);
      else if (p < 0.43) await this.membership(id);
      else if (p < 0.53) await this.issue(id);
      else if (p < 0.67) await this.claim(id);
      else if (p < 0.72) await this.withdraw(id, 'unbindChat', this.chatRefs);
      else if (p < 0.77) await this.observer(id, 'disconnect');
      else if (p < 0.85) await this.observer(id, 'inspectObserver');
      else await this.list(id);
    }
  }

  private record(client: number, input: BindingsInput, send: () => Promise<Outcome<BindingsAnswer>>) {
    return this.recorder.record(this.cell.name, client, input, send);
  }

  private async bind(client: number): Promise<void> {
    const { random, cell } = this;
    const run = random.pick(cell.runs);
    const room = random.pick(cell.rooms);
    const once = (r: string) =>
      this.record(client, { kind: 'bind', run, room: r }, () => bindRequest(cell.who, run, r)).then((o) => {
        if (o.kind === 'answer' && o.output.ref !== undefined) this.runRefs.add(o.output.ref);
        if (o.kind === 'answer' && o.output.code === 'not_found') this.removed.add(r);
      });
    const twin = random.chance(0.35) ? [sleep(random.below(4)).then(() => once(random.pick(cell.rooms)))] : [];
    await Promise.all([once(room), ...twin]);
  }

  private async withdraw(client: number, kind: 'unbind' | 'unbindChat', refs: Set<string>): Promise<void> {
    if (refs.size === 0) return this.list(client);
    const ref = this.random.pick([...refs]);
    const which = kind === 'unbind' ? 'run-bindings' : 'chat-bindings';
    await this.record(client, { kind, ref }, () => withdrawRequest(this.cell.who, which, ref));
  }

  /** The owner removes the member from a room it is in; or the member, removed, joins again and consents. */
  private async membership(client: number): Promise<void> {
    const { cell } = this;
    const room = this.random.pick(cell.rooms);
    if (!this.removed.has(room)) {
      const removed = await this.record(client, { kind: 'remove', room }, () =>
        consoleRequest(cell.who, 'remove', room),
      );
      if (removed.kind === 'answer' && removed.output.status !== 400) this.removed.add(room);
      return;
    }
    const token = await inviteToken(cell.who, room);
    if (token === undefined) return;
    const joined = await this.record(client, { kind: 'join', room }, () =>
      consoleRequest(cell.who, 'join', room, token),
    );
    if (isStatus(joined, 303) || isStatus(joined, 400)) this.removed.delete(room);
    await this.record(client, { kind: 'consent', room }, () => consoleRequest(cell.who, 'consent', room));
  }

  private async issue(client: number): Promise<void> {
    const chat = this.random.pick(this.cell.chats);
    await this.record(client, { kind: 'issue', chat }, () =>
      issueRequest(this.cell.who, chat, (ref, handle) => this.observers.push({ ref, chat, handle })),
    );
  }

  /** A recent handle for a run; a quarter of the time the same handle for a second run at once. */
  private async claim(client: number): Promise<void> {
    const { random, cell } = this;
    const recent = this.observers.slice(-4);
    if (recent.length === 0) return this.issue(client);
    const observer = random.pick(recent);
    const once = (run: string) =>
      this.record(client, { kind: 'claim', observer: observer.ref, chat: observer.chat, run }, () =>
        claimRequest(cell.who, observer.handle, run),
      ).then((o) => {
        if (o.kind === 'answer' && o.output.ref !== undefined) this.chatRefs.add(o.output.ref);
      });
    const twin = random.chance(0.25) ? [sleep(random.below(4)).then(() => once(random.pick(cell.runs)))] : [];
    await Promise.all([once(random.pick(cell.runs)), ...twin]);
  }

  private async observer(client: number, kind: 'disconnect' | 'inspectObserver'): Promise<void> {
    if (this.observers.length === 0) return this.issue(client);
    const { ref } = this.random.pick(this.observers.slice(-6));
    await this.record(client, { kind, observer: ref }, () =>
      observerRequest(this.cell.who, kind === 'disconnect' ? 'DELETE' : 'GET', ref),
    );
  }

  /** One export; each of its two table reads is an operation over the export's interval. */
  private async list(client: number): Promise<void> {
    // Sent from inside the first read's interval, so both intervals contain the server's work.
    let answer: ReturnType<typeof exportRequest> | undefined;
    const read = (kind: 'listRunBindings' | 'listChatBindings', table: 'room_run_bindings' | 'room_chat_bindings') =>
      this.record(client, { kind }, async () => {
        answer ??= exportRequest(this.cell.who);
        return toBindingsOutcome(await answer, (body) => ({ rows: rowsOf(body.records, table) }));
      });
    const [runs, chats] = await Promise.all([
      read('listRunBindings', 'room_run_bindings'),
      read('listChatBindings', 'room_chat_bindings'),
    ]);
    if (runs.kind === 'answer') for (const row of runs.output.rows ?? []) if (row.active) this.runRefs.add(row.ref);
    if (chats.kind === 'answer') for (const row of chats.output.rows ?? []) if (row.active) this.chatRefs.add(row.ref);
  }
}
