import type { z } from 'zod';
import type { IngressEnvelope } from '../../api/roomIngressSchemas.js';
import { HelixError } from '../../domain/errors.js';
import { canonicalJson, sha256Hex } from '../../domain/hashing.js';
import type { IngressRequestRecord } from '../../domain/roomObservations.js';
import type { RoomSourceRecord } from '../../domain/roomSources.js';
import type { UnitOfWork } from '../../store/port.js';
import type { RoomDeps } from '../rooms/deps.js';
import { parseInput } from '../validate.js';
import { pruneLedger, storageLimitsOf } from './storageBounds.js';
import type { ServiceResult } from '../result.js';

/** The ingress POST routes under `/api/room-ingress/v1/bindings/{binding_id}/` (ING-01). */
export const INGRESS_POST_ROUTES = [
  'manifest',
  'heartbeat',
  'world-events/batch',
  'probes/pending',
  'probes/result',
] as const;
export type IngressPostRoute = (typeof INGRESS_POST_ROUTES)[number];
/** The action lane's POST routes under `/api/room-actions/v1/bindings/{binding_id}/` (§23.3, M-02); same request ledger. */
export const ACTION_LANE_ROUTES = ['actions/pending', 'actions/result', 'controls/result'] as const;
export type ActionLaneRoute = (typeof ACTION_LANE_ROUTES)[number];

/** An authenticated, schema-valid request not seen before, as a use case handles it. */
export interface IngressRequest<B extends IngressEnvelope> {
  readonly source: RoomSourceRecord;
  readonly body: B;
  readonly now: number;
  /** SHA-256 of the raw producer epoch: the raw epoch is never stored (§22). */
  readonly producerEpochHash: string;
}

/** What an ingress use case answers; `replayed` marks the stored answer to a retried request. */
export interface IngressResult extends ServiceResult {
  readonly status: 200;
}

export interface IngressCall<S extends z.ZodType<IngressEnvelope>> {
  readonly route: IngressPostRoute | ActionLaneRoute;
  readonly schema: S;
  /** Authenticated by the caller (./sourceCredential.ts), before anything of the body is read. */
  readonly source: RoomSourceRecord;
  readonly input: unknown;
}

/**
 * The frame of every ingress POST (ING-02 "request identity"), for a source whose bearer was
 * already authenticated (a stranger learns nothing about the body rules): validate the strict
 * body, then, in one
 * transaction, either answer a retry of an accepted request (same source, `request_id`, route and
 * body hash) with the stored answer and write nothing, refuse the same `request_id` with another
 * body (`ingress_request_replayed`), or run the use case and record the request with its answer.
 * A refused request records nothing, so its retry is judged afresh. The ledger is pruned first
 * (./storageBounds.ts): a request is remembered for the replay window, not for ever.
 */
export const acceptIngressRequest = async <S extends z.ZodType<IngressEnvelope>>(
  deps: RoomDeps,
  call: IngressCall<S>,
  handle: (uow: UnitOfWork, request: IngressRequest<z.output<S>>) => Promise<unknown>,
): Promise<IngressResult> => {
  const { source } = call;
  const body = parseInput(call.schema, call.input);
  const now = deps.now();
  const bodyHash = sha256Hex(canonicalJson({ route: call.route, body }));
  const producerEpochHash = sha256Hex(body.producer_epoch);
  return deps.store.transaction(async (uow) => {
    await pruneLedger(uow, source.sourceId, now, storageLimitsOf(deps));
    const earlier = await uow.roomIngress.getRequest(source.sourceId, body.request_id);
    if (earlier !== undefined) return replay(earlier, bodyHash);
    const response = await handle(uow, { source, body, now, producerEpochHash });
    const recorded = await uow.roomIngress.insertRequest({
      sourceId: source.sourceId,
      requestId: body.request_id,
      ownerHash: source.ownerHash,
      route: call.route,
      bodyHash,
      producerEpochHash,
      receivedAt: now,
      responseJson: JSON.stringify(response),
    });
    // A concurrent twin took the identity first: this one's writes roll back with the refusal.
    if (!recorded) throw new HelixError('ingress_request_replayed');
    return { status: 200 as const, body: response, replayed: false };
  });
};

const replay = (earlier: IngressRequestRecord, bodyHash: string): IngressResult => {
  if (earlier.bodyHash !== bodyHash) throw new HelixError('ingress_request_replayed');
  return { status: 200, body: JSON.parse(earlier.responseJson) as unknown, replayed: true };
};
