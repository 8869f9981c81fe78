import type { FastifyInstance } from 'fastify';
import type { AccountDeps } from '../../service/accounts/deps.js';
import type { ChatDeps } from '../../service/chats/deps.js';
import { disconnectObserver } from '../../service/chats/disconnectObserver.js';
import { inspectObserverBinding } from '../../service/chats/inspectObserverBinding.js';
import { issueObserverBinding } from '../../service/chats/issueObserverBinding.js';
import { listObserverEvents } from '../../service/chats/listObserverEvents.js';
import type { ResourceIdentity } from '../resourceIdentity.js';
import { type BrowserRoute, registerBrowserRoutes } from './browserJsonRoutes.js';

/** §22 [ref]: the browser observer lane, mounted under `/api/agi` (OBS-01, OBS-11, OBS-12). */
export const OBSERVER_BINDINGS_PATH = '/api/agi/agent-run-observer/bindings';
const OBSERVER_BINDING_PATH = `${OBSERVER_BINDINGS_PATH}/:binding_ref`;
/**
 * OBS-02 allows 12,000 characters of snapshot; JSON escaping turns one character into at most six
 * bytes (`\uXXXX`), plus the envelope.
 */
const BODY_LIMIT = 6 * 12_000 + 4096;

type Params = { binding_ref: string };

/**
 * The observer lane as a table; each row calls one use case of src/service/chats/ as the signed-in
 * account. Console routes (docs/console.md, docs/rooms.md): cookie-authenticated, same-origin,
 * never a bearer surface; in the OpenAPI document beside the source manager's browser routes
 * (src/http/openapi/observerBrowserOperations.ts).
 */
export const OBSERVER_ROUTES: readonly BrowserRoute<ChatDeps, Params>[] = [
  {
    method: 'POST',
    url: OBSERVER_BINDINGS_PATH,
    status: 201,
    input: 'body',
    handler: (d, a, r) => issueObserverBinding(d, a, r.body),
  },
  {
    method: 'GET',
    url: OBSERVER_BINDING_PATH,
    status: 200,
    input: 'none',
    handler: (d, a, r) => inspectObserverBinding(d, a, r.params.binding_ref),
  },
  {
    method: 'DELETE',
    url: OBSERVER_BINDING_PATH,
    status: 200,
    input: 'none',
    handler: (d, a, r) => disconnectObserver(d, a, r.params.binding_ref),
  },
  {
    method: 'GET',
    url: `${OBSERVER_BINDING_PATH}/events`,
    status: 200,
    input: 'query',
    handler: (d, a, r) => listObserverEvents(d, a, r.params.binding_ref, r.query),
  },
];

export interface ObserverRouteOptions {
  readonly accounts: AccountDeps;
  readonly chats: ChatDeps;
  readonly identity: ResourceIdentity;
}

export const registerObserverRoutes = (app: FastifyInstance, options: ObserverRouteOptions): void =>
  registerBrowserRoutes(app, OBSERVER_ROUTES, {
    accounts: options.accounts,
    deps: options.chats,
    identity: options.identity,
    surface: 'observer',
    bodyLimit: BODY_LIMIT,
  });
