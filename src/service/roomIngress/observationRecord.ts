import type { z } from 'zod';
import { INGRESS_LIMITS } from '../../api/roomIngressSchemas.js';
import { redactCredentials } from '../../domain/credentialShape.js';
import { HelixError } from '../../domain/errors.js';
import { canonicalJson, sha256Hex } from '../../domain/hashing.js';
import type { ObservationKind, ObservationRecord } from '../../domain/roomObservations.js';
import type { RoomSourceRecord } from '../../domain/roomSources.js';
import type { CurrentAdmission } from './currentAdmission.js';
import { newIngressId } from './ingressIds.js';

const MAX_ISSUES = 20;

/**
 * Checks an observation's payload against its profile's schema: a refusal is
 * `environment_adapter_observation_schema_invalid` with the paths (under `at`) and rules, never a value.
 */
export const checkObservation = <T>(schema: z.ZodType<T>, payload: unknown, at: string): T => {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  const issues = result.error.issues.slice(0, MAX_ISSUES).map((issue) => ({
    path: [at, ...issue.path.map(String)].join('.'),
    message: issue.code === 'unrecognized_keys' ? 'unknown field' : 'does not satisfy the adapter profile',
  }));
  throw new HelixError('environment_adapter_observation_schema_invalid', { issues });
};

/** ING-03 freshness: a producer clock further ahead of Helix's than the tolerated skew is refused. */
export const observedAtOf = (observedAt: string, now: number, at: string): number => {
  const millis = Date.parse(observedAt);
  if (millis > now + INGRESS_LIMITS.clockSkewMs)
    throw new HelixError('environment_adapter_observation_schema_invalid', {
      issues: [{ path: at, message: 'is in the future' }],
    });
  return millis;
};

export interface ObservationInput {
  readonly kind: ObservationKind;
  readonly eventId: string;
  readonly requestId: string;
  readonly producerEpochHash: string;
  readonly observedAt: number;
  readonly receivedAt: number;
  readonly payload: unknown;
}

/**
 * One observation with its exact request-level provenance (ING-02, ING-03): room, source, world,
 * admission, profile id/version/hash, manifest id/hash, producer epoch hash, request and event id.
 * The payload is stored with every credential-shaped string redacted.
 */
export const observationRecord = (
  source: RoomSourceRecord,
  { admission }: CurrentAdmission,
  input: ObservationInput,
): ObservationRecord => {
  const payloadJson = canonicalJson(redactCredentials(input.payload));
  return {
    observationId: newIngressId('obs'),
    sourceId: source.sourceId,
    roomId: source.roomId,
    ownerHash: source.ownerHash,
    worldId: source.worldId,
    admissionId: admission.admissionId,
    profileId: admission.profileId,
    profileVersion: admission.profileVersion,
    profileHash: admission.profileHash,
    manifestId: admission.manifestId,
    manifestHash: admission.manifestHash,
    producerEpochHash: input.producerEpochHash,
    requestId: input.requestId,
    eventId: input.eventId,
    kind: input.kind,
    observedAt: input.observedAt,
    receivedAt: input.receivedAt,
    payloadJson,
    payloadSha256: sha256Hex(payloadJson),
    payloadBytes: Buffer.byteLength(payloadJson, 'utf8'),
  };
};
