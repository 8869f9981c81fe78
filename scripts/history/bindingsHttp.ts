import type { BindingRow, BindingsAnswer } from './bindings.js';
import { exchange, type HttpAnswer } from './http.js';
import type { Outcome } from './recorder.js';

/**
 * The requests of the bindings workload and what their answers tell the model. The agent side goes
 * over the room facade with the member's bearer; the browser side (chats, observer claims, invites,
 * consent, removal) over the console with a session cookie, as the page sends it; the reads over the
 * subject export with an operator key.
 */
export interface CellIdentities {
  readonly baseUrl: string;
  /** The member's `hlx_` key (room and run scopes): it binds its runs and claims chats. */
  readonly memberToken: string;
  /** The member's and the owner's browser sessions (`helix_session=…`). */
  readonly memberCookie: string;
  readonly ownerCookie: string;
  /** The owner's `hlx_` key: it creates the rooms. */
  readonly ownerToken: string;
  /** An operator key with `subject.export`, and the member's account id it exports. */
  readonly operatorToken: string;
  readonly memberAccountId: string;
  readonly timeoutMs: number;
}

const ROOMS = '/api/v1/rooms';
export const OBSERVER = '/api/agi/agent-run-observer/bindings';

/** A console request: same origin, the session cookie, a form or JSON body; redirects are answers. */
export const browserExchange = async (
  who: Pick<CellIdentities, 'baseUrl' | 'timeoutMs'>,
  cookie: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: { readonly form: Record<string, string> } | { readonly json: unknown },
): Promise<HttpAnswer> => {
  const headers: Record<string, string> = {
    cookie,
    origin: new URL(who.baseUrl).origin,
    'sec-fetch-site': 'same-origin',
  };
  let payload: string | undefined;
  if (body !== undefined && 'form' in body) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = new URLSearchParams(body.form).toString();
  } else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body.json);
  }
  try {
    const response = await fetch(`${who.baseUrl}${path}`, {
      method,
      headers,
      redirect: 'manual',
      ...(payload === undefined ? {} : { body: payload }),
      signal: AbortSignal.timeout(who.timeoutMs),
    });
    const text = await response.text();
    return { kind: 'response', status: response.status, headers: response.headers, body: parseJson(text) };
  } catch (err) {
    const code = (err as { cause?: { code?: unknown } }).cause?.code;
    if (code === 'ECONNREFUSED') return { kind: 'not_sent' };
    return { kind: 'lost', reason: typeof code === 'string' ? code : (err as Error).name };
  }
};

const parseJson = (text: string): unknown => {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return text;
  }
};

type Body = Record<string, unknown>;

/** No answer or a 5xx (or a 429, which the workload turns off): the request may or may not have acted. */
export const toBindingsOutcome = (answer: HttpAnswer, read: (body: Body) => Partial<BindingsAnswer>) => {
  if (answer.kind === 'not_sent') return answer;
  if (answer.kind === 'lost') return { kind: 'unknown', answered: false, reason: answer.reason } as const;
  if (answer.status >= 500 || answer.status === 429)
    return { kind: 'unknown', answered: true, reason: `HTTP ${answer.status}` } as const;
  const body: Body = typeof answer.body === 'object' && answer.body !== null ? (answer.body as Body) : {};
  const code = typeof body.code === 'string' ? { code: body.code } : {};
  return { kind: 'answer', output: { status: answer.status, ...code, ...read(body) } } as const;
};

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const field = (name: string, value: unknown): Partial<BindingsAnswer> => {
  const s = str(value);
  return s === undefined ? {} : { [name]: s };
};

const refOf = (body: Body) => field('ref', body.binding_ref);
const revocationOf = (body: Body) => field('revocation', body.revocation_status);

export const bindRequest = async (who: CellIdentities, run: string, room: string): Promise<Outcome<BindingsAnswer>> =>
  toBindingsOutcome(
    await exchange(who.baseUrl, {
      method: 'POST',
      path: `${ROOMS}/run-bindings`,
      token: who.memberToken,
      body: { room_id: room, run_id: run },
      timeoutMs: who.timeoutMs,
    }),
    refOf,
  );

export const withdrawRequest = async (
  who: CellIdentities,
  which: 'run-bindings' | 'chat-bindings',
  ref: string,
): Promise<Outcome<BindingsAnswer>> =>
  toBindingsOutcome(
    await exchange(who.baseUrl, {
      method: 'DELETE',
      path: `${ROOMS}/${which}/${ref}`,
      token: who.memberToken,
      timeoutMs: who.timeoutMs,
    }),
    revocationOf,
  );

export const claimRequest = async (
  who: CellIdentities,
  handle: string,
  run: string,
): Promise<Outcome<BindingsAnswer>> =>
  toBindingsOutcome(
    await exchange(who.baseUrl, {
      method: 'POST',
      path: `${ROOMS}/chat-bindings/claim`,
      token: who.memberToken,
      body: { claim_handle: handle, run_id: run },
      timeoutMs: who.timeoutMs,
    }),
    refOf,
  );

/** Issues a claim handle for the member's chat; the handle goes to `keep`, never into the history. */
export const issueRequest = async (
  who: CellIdentities,
  chat: string,
  keep: (observer: string, handle: string) => void,
): Promise<Outcome<BindingsAnswer>> =>
  toBindingsOutcome(
    await browserExchange(who, who.memberCookie, 'POST', OBSERVER, { json: { chat_session_id: chat } }),
    (body) => {
      const observer = str(body.binding_ref);
      const handle = str(body.claim_handle);
      if (observer !== undefined && handle !== undefined) keep(observer, handle);
      return refOf(body);
    },
  );

export const observerRequest = async (
  who: CellIdentities,
  method: 'GET' | 'DELETE',
  observer: string,
): Promise<Outcome<BindingsAnswer>> =>
  toBindingsOutcome(await browserExchange(who, who.memberCookie, method, `${OBSERVER}/${observer}`), (body) =>
    method === 'GET' ? field('observerStatus', body.binding_status) : revocationOf(body),
  );

/** The owner removes the member, or the member uses an invite or accepts the consent: a form post. */
export const consoleRequest = async (
  who: CellIdentities,
  kind: 'remove' | 'join' | 'consent',
  room: string,
  token = '',
): Promise<Outcome<BindingsAnswer>> => {
  const answer =
    kind === 'remove'
      ? await browserExchange(who, who.ownerCookie, 'POST', `/account/rooms/${room}/members/remove`, {
          form: { account: who.memberAccountId },
        })
      : kind === 'join'
        ? await browserExchange(who, who.memberCookie, 'POST', '/account/rooms/invite', { form: { token } })
        : await browserExchange(who, who.memberCookie, 'POST', `/account/rooms/${room}/consent/accept`, {
            form: { version: '1' },
          });
  return toBindingsOutcome(answer, () => ({}));
};

/** A fresh single-use invite to the member role, made by the owner; undefined when none was shown. */
export const inviteToken = async (who: CellIdentities, room: string): Promise<string | undefined> => {
  const answer = await browserExchange(who, who.ownerCookie, 'POST', `/account/rooms/${room}/invites`, {
    form: { role: 'member', ttl: '1h' },
  });
  if (answer.kind !== 'response' || answer.status !== 201 || typeof answer.body !== 'string') return undefined;
  return /hlxinv_[A-Za-z0-9_-]{43}/.exec(answer.body)?.[0];
};

/** The member's subject export: its run-room and run-chat binding rows, each table read by one query. */
export const exportRequest = async (who: CellIdentities): Promise<HttpAnswer> =>
  exchange(who.baseUrl, {
    method: 'GET',
    path: `/api/v1/subjects/${encodeURIComponent(who.memberAccountId)}/export`,
    token: who.operatorToken,
    timeoutMs: who.timeoutMs,
  });

export const rowsOf = (records: unknown, table: 'room_run_bindings' | 'room_chat_bindings'): BindingRow[] => {
  const rows = (records as Record<string, unknown> | undefined)?.[table];
  if (!Array.isArray(rows)) return [];
  const place = table === 'room_run_bindings' ? 'room_id' : 'chat_session_id';
  return rows.map((row: Body) => ({
    ref: str(row.binding_ref) ?? '',
    run: str(row.run_id) ?? '',
    place: str(row[place]) ?? '',
    active: row.status === 'active',
  }));
};
