import { z } from 'zod';
import { isCredentialShaped } from '../domain/credentialShape.js';
import { SOURCE_LIMITS } from '../domain/roomSources.js';

/**
 * The source ingress request bodies (docs/spec/shared-live-room-requirements.md §8 ING-01..ING-03,
 * §10 PRB-02, §22 "Source ingress"; docs/rooms.md "Source ingress"). The producer side of the same
 * contract is the reference connector's connectors/minecraft/src/wire.ts; test/roomIngress.wire.test.ts
 * checks that every body it builds is accepted here, so the two cannot drift.
 *
 * The envelope and each route's body are strict and bounded and written for any adapter profile;
 * what a snapshot or a probe result holds is the profile's (./roomObservationSchemas.ts), checked
 * after the source's admission is known.
 */
export const INGRESS_LIMITS = {
  /** Most world events in one batch: the reference connector's bound (ING-03). */
  maxBatchEvents: 16,
  /** Most probes handed out by one poll. */
  maxPendingProbes: 8,
  /** A producer clock this far ahead of Helix's is tolerated; further is refused. */
  clockSkewMs: 30_000,
  maxListItems: 16,
  maxNameLength: 64,
} as const;

/** request_id, producer_epoch, event_id, probe_id: the connector's id format, never credential-shaped. */
const ingressId = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{16,128}$/, 'must be 16-128 of A-Za-z0-9._:-')
  .refine((value) => !isCredentialShaped(value), 'must not contain a credential');
/** ISO 8601 UTC with the `Z` suffix, as the connector writes `Date.toISOString()`. */
const timestamp = z.iso.datetime({ offset: false });
const token = (max: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, 'must be an identifier')
    .max(max);
const tokens = (min: number) => z.array(token(200)).min(min).max(INGRESS_LIMITS.maxListItems);

const envelope = {
  request_id: ingressId,
  producer_epoch: ingressId,
  sent_at: timestamp,
};

export const ManifestRequestSchema = z.strictObject({
  schema: z.literal('helix.environment_source_manifest.v1'),
  ...envelope,
  domain_adapter: token(SOURCE_LIMITS.domainAdapterMaxLength),
  world_id: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]*$/, 'must be a world id')
    .max(SOURCE_LIMITS.worldIdMaxLength),
  protocol_version: token(40),
  mechanics_collections: tokens(1),
  modalities: tokens(1),
  probe_types: tokens(0),
  producer: z.strictObject({
    name: token(INGRESS_LIMITS.maxNameLength),
    version: z.string().min(1).max(INGRESS_LIMITS.maxNameLength),
  }),
});
export type ManifestRequest = z.output<typeof ManifestRequestSchema>;

export const HeartbeatRequestSchema = z.strictObject({
  schema: z.literal('helix.environment_source_heartbeat.v1'),
  ...envelope,
  game_connected: z.boolean(),
  last_observed_at: timestamp.nullable(),
});
export type HeartbeatRequest = z.output<typeof HeartbeatRequestSchema>;

/** A JSON object whose contents the source's profile checks (roomObservationSchemas.ts). */
const profilePayload = z.record(z.string(), z.unknown());

export const WorldEventBatchRequestSchema = z.strictObject({
  schema: z.literal('helix.environment_world_event_batch.v1'),
  ...envelope,
  world_id: ManifestRequestSchema.shape.world_id,
  events: z
    .array(
      z.strictObject({
        event_id: ingressId,
        kind: z.literal('snapshot'),
        observed_at: timestamp,
        snapshot: profilePayload,
      }),
    )
    .min(1)
    .max(INGRESS_LIMITS.maxBatchEvents),
});
export type WorldEventBatchRequest = z.output<typeof WorldEventBatchRequestSchema>;

export const ProbePollRequestSchema = z.strictObject({
  schema: z.literal('helix.environment_probe_poll.v1'),
  ...envelope,
  max_probes: z.number().int().min(1).max(INGRESS_LIMITS.maxPendingProbes),
});
export type ProbePollRequest = z.output<typeof ProbePollRequestSchema>;

export const PROBE_RESULT_STATUSES = ['completed', 'unsupported', 'failed'] as const;

export const ProbeResultRequestSchema = z.strictObject({
  schema: z.literal('helix.environment_probe_result.v1'),
  ...envelope,
  probe_id: ingressId,
  probe_type: token(200),
  status: z.enum(PROBE_RESULT_STATUSES),
  observed_at: timestamp,
  result: profilePayload.nullable(),
});
export type ProbeResultRequest = z.output<typeof ProbeResultRequestSchema>;

/** What every ingress POST body carries, whichever route it is for. */
export interface IngressEnvelope {
  readonly request_id: string;
  readonly producer_epoch: string;
  readonly sent_at: string;
}
