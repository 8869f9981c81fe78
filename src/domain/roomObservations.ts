/**
 * What a room source submits through the ingress lane (docs/spec/shared-live-room-requirements.md
 * §8 ING-01..ING-03, §10 PRB-02, §22; docs/rooms.md "Source ingress"): request identities for
 * replay refusal, the source's connection status, observations with their exact provenance, and
 * the probes a run asks of a source. Pure data; storage in src/store/roomIngressPort.ts.
 */

/** An accepted ingress request: `(source, request_id)` is used once (ING-02 "request identity"). */
export interface IngressRequestRecord {
  readonly sourceId: string;
  readonly requestId: string;
  readonly ownerHash: string;
  readonly route: string;
  /** SHA-256 of the canonical body: the same id with another body is a replay, not a retry. */
  readonly bodyHash: string;
  readonly producerEpochHash: string;
  readonly receivedAt: number;
  /** The JSON answer first given, so a retry of the same request gets it again and changes nothing. */
  readonly responseJson: string;
}

/** The connection as the producer last reported it (heartbeat); one row per source. */
export interface SourceStatusRecord {
  readonly sourceId: string;
  readonly ownerHash: string;
  readonly producerEpochHash: string;
  readonly lastHeartbeatAt: number;
  readonly gameConnected: boolean;
  /** The producer's own latest observation time, as it reported it; null before the first. */
  readonly lastObservedAt: number | null;
}

export const OBSERVATION_KINDS = ['snapshot', 'probe_result'] as const;
export type ObservationKind = (typeof OBSERVATION_KINDS)[number];

/**
 * One read-only world observation with its exact request-level provenance (ING-02, ING-03): the
 * room, source, world, adapter profile id/version/hash, manifest, producer epoch (hashed) and
 * request identity it arrived with, when the producer observed it and when Helix received it.
 */
export interface ObservationRecord {
  readonly observationId: string;
  readonly sourceId: string;
  readonly roomId: string;
  readonly ownerHash: string;
  readonly worldId: string;
  readonly admissionId: string;
  readonly profileId: string;
  readonly profileVersion: number;
  readonly profileHash: string;
  readonly manifestId: string;
  readonly manifestHash: string;
  readonly producerEpochHash: string;
  readonly requestId: string;
  /** The producer's id of the event (world events) or the probe id (probe results). */
  readonly eventId: string;
  readonly kind: ObservationKind;
  readonly observedAt: number;
  readonly receivedAt: number;
  /** The normalized, redacted observation as JSON; never holds a credential-shaped value. */
  readonly payloadJson: string;
  readonly payloadSha256: string;
  /** UTF-8 bytes of payloadJson: what the observation counts against its room's storage quota. */
  readonly payloadBytes: number;
}

export const PROBE_STATUSES = ['pending', 'delivered', 'completed', 'unsupported', 'failed', 'expired'] as const;
export type ProbeStatus = (typeof PROBE_STATUSES)[number];

/** A read-only probe a run's turn asks of the room's source (PRB-01, PRB-02). */
export interface ProbeRecord {
  readonly probeId: string;
  readonly sourceId: string;
  readonly roomId: string;
  readonly ownerHash: string;
  readonly runId: string;
  readonly turn: number;
  readonly probeType: string;
  readonly status: ProbeStatus;
  readonly requestedAt: number;
  readonly expiresAt: number;
  readonly deliveredAt: number | null;
  readonly answeredAt: number | null;
  /** The observation that holds the result, once answered. */
  readonly observationId: string | null;
}
