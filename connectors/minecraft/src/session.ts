// One producer session against the ingress: the producer epoch of this process start and a fresh
// request identity per request, added to every body (docs/connectors.md#the-protocol).
import { randomUUID } from 'node:crypto';
import type { IngressClient } from './ingressClient.js';
import type { IngressRoute } from './wire.js';

export interface IngressSession {
  /** Identifies this process start; Helix admits a new epoch only with a new manifest. */
  readonly producerEpoch: string;
  readonly now: () => Date;
  readonly newId: () => string;
  /** POSTs `fields` under the envelope (`request_id`, `producer_epoch`, `sent_at`) to `route`. */
  send(route: IngressRoute, fields: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
}

export interface SessionOptions {
  readonly client: IngressClient;
  readonly now?: () => Date;
  readonly newId?: () => string;
}

export const startSession = (options: SessionOptions): IngressSession => {
  const now = options.now ?? (() => new Date());
  const newId = options.newId ?? randomUUID;
  const producerEpoch = `epoch-${newId()}`;
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
