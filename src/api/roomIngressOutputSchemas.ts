import { z } from 'zod';
import { ADAPTER_ADMISSION_SCHEMA } from '../domain/adapterManifestAdmission.js';
import { SOURCE_ID_PATTERN, SOURCE_STATUSES } from '../domain/roomSources.js';
import { PROBE_RESULT_STATUSES } from './roomIngressSchemas.js';

/**
 * What the source ingress answers (src/service/roomIngress/; docs/rooms.md "Source ingress"),
 * published in the OpenAPI document. Loose objects, as for the other receipts; the end-to-end
 * tests parse real answers with them, so they cannot drift.
 */
export const INGRESS_RECEIPT_SCHEMAS = {
  heartbeat: 'helix.environment_source_heartbeat_receipt.v1',
  batch: 'helix.environment_world_event_batch_receipt.v1',
  poll: 'helix.environment_probe_poll_receipt.v1',
  probeResult: 'helix.environment_probe_result_receipt.v1',
  status: 'helix.environment_source_status.v1',
} as const;

const isoTime = z.string();
const bindingId = z.string().regex(SOURCE_ID_PATTERN);

export const AdmissionReceiptSchema = z.looseObject({
  schema: z.literal(ADAPTER_ADMISSION_SCHEMA),
  admission_id: z.string(),
  binding_id: bindingId,
  world_id: z.string(),
  profile_id: z.string(),
  profile_version: z.number().int(),
  profile_contract_hash: z.string(),
  manifest_id: z.string(),
  manifest_hash: z.string(),
  mechanics_collections: z.array(z.string()),
  admitted_at: isoTime,
});

export const HeartbeatReceiptSchema = z.looseObject({
  schema: z.literal(INGRESS_RECEIPT_SCHEMAS.heartbeat),
  received_at: isoTime,
});

export const WorldEventBatchReceiptSchema = z.looseObject({
  schema: z.literal(INGRESS_RECEIPT_SCHEMAS.batch),
  accepted: z.number().int(),
  observation_ids: z.array(z.string()),
  /** §22 [ref]: observations carry `reentry_required: true`; they reach an answer only through a run's turn. */
  reentry_required: z.literal(true),
});

export const ProbePollReceiptSchema = z.looseObject({
  schema: z.literal(INGRESS_RECEIPT_SCHEMAS.poll),
  probes: z.array(z.looseObject({ probe_id: z.string(), probe_type: z.string(), requested_at: isoTime })),
});

export const ProbeResultReceiptSchema = z.looseObject({
  schema: z.literal(INGRESS_RECEIPT_SCHEMAS.probeResult),
  probe_id: z.string(),
  status: z.enum(PROBE_RESULT_STATUSES),
  observation_id: z.string(),
  reentry_required: z.literal(true),
});

export const SourceStatusReceiptSchema = z.looseObject({
  schema: z.literal(INGRESS_RECEIPT_SCHEMAS.status),
  binding_id: bindingId,
  domain_adapter: z.string(),
  world_id: z.string(),
  source_status: z.enum(SOURCE_STATUSES),
  expires_at: isoTime,
  admission: z
    .looseObject({
      admission_id: z.string(),
      profile_id: z.string(),
      profile_version: z.number().int(),
      manifest_id: z.string(),
      admitted_at: isoTime,
      contract_current: z.boolean(),
    })
    .nullable(),
  connection: z
    .looseObject({
      game_connected: z.boolean(),
      last_heartbeat_at: isoTime.nullable(),
      last_observed_at: isoTime.nullable(),
    })
    .nullable(),
});
