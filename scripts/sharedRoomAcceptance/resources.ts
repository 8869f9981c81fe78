import type { ProbeContext } from '../deploymentProbe/guardedFetch.js';
import { restCall, type Answer, type RestMethod, type RestPayload } from '../deploymentProbe/restCall.js';

/** One exact request, kept so that it can be replayed byte for byte (HAR-12). */
export interface RestRequest {
  readonly method: RestMethod;
  readonly path: string;
  readonly payload?: RestPayload;
}

export const send = (ctx: ProbeContext, token: string, request: RestRequest): Promise<Answer> =>
  restCall(ctx, token, request.method, request.path, request.payload);

/**
 * What the automated steps created, as far as the harness knows, and so what cleanup must undo.
 * A request whose outcome is unknown stays pending: cleanup replays it to recover the opaque
 * identifier before withdrawing or cancelling (HAR-12).
 */
export interface Resources {
  roomId: string | undefined;
  /** The exact start, once sent; its Idempotency-Key is fresh for each invocation (HAR-11). */
  runStart: RestRequest | undefined;
  runId: string | undefined;
  /** The exact bind while its outcome is unknown. */
  pendingBind: RestRequest | undefined;
  activeBindingRef: string | undefined;
}

export const noResources = (): Resources => ({
  roomId: undefined,
  runStart: undefined,
  runId: undefined,
  pendingBind: undefined,
  activeBindingRef: undefined,
});
