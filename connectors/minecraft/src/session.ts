// One producer session against a lane (ingress or actions): the producer epoch of this process start and a fresh
// request identity per request, added to every body (docs/connectors.md#the-protocol).
import { randomUUID } from 'node:crypto';
import type { ActionRoute } from './actionWire.js';
import type { LaneClient } from './ingressClient.js';
import type { IngressRoute } from './wire.js';

export interface Session<Route extends string> {
  /** Identifies this process start; Helix admits a new epoch only with a new manifest. */
  readonly producerEpoch: string;
  readonly now: () => Date;
  readonly newId: () => string;
  /** POSTs `fields` under the envelope (`request_id`, `producer_epoch`, `sent_at`) to `route`. */
  send(route: Route, fields: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
}
export type IngressSession = Session<IngressRoute>;
/** The action lane's session: the same producer epoch as the ingress session of this process start. */
export type ActionSession = Session<ActionRoute>;

export interface SessionOptions<Route extends string> {
  readonly client: LaneClient<Route>;
  /** Given for a second lane of the same process start, so both lanes share one epoch. */
  readonly producerEpoch?: string;
  readonly now?: () => Date;
  readonly newId?: () => string;
}

export const startSession = <Route extends string>(options: SessionOptions<Route>): Session<Route> => {
  const now = options.now ?? (() => new Date());
  const newId = options.newId ?? randomUUID;
  const producerEpoch = options.producerEpoch ?? `epoch-${newId()}`;
  return {
    producerEpoch,
    now,
    newId,
    send: (route, fields, signal) =>
      options.client.post(
        route,
        { ...fields, request_id: newId(), producer_epoch: producerEpoch, sent_at: now().toISOString() },
        signal,
      ),
  };
};
