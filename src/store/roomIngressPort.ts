import type {
  IngressRequestRecord,
  ObservationKind,
  ObservationRecord,
  ProbeRecord,
  ProbeStatus,
  SourceStatusRecord,
} from '../domain/roomObservations.js';

/** One stored observation's identity, kind and size, as the room storage quota weighs it. */
export interface ObservationSize {
  readonly observationId: string;
  readonly kind: ObservationKind;
  readonly payloadBytes: number;
}

/**
 * The source ingress lane in the storage port (UnitOfWork.roomIngress; docs/rooms.md "Source
 * ingress"). Request identities are inserted once: the primary key makes a concurrent replay of
 * the same `(source, request_id)` fail, so at most one of them stores anything.
 */
export interface RoomIngressRepository {
  getRequest(sourceId: string, requestId: string): Promise<IngressRequestRecord | undefined>;
  /** Records an accepted request; false when the identity is already used (nothing written). */
  insertRequest(request: IngressRequestRecord): Promise<boolean>;
  /**
   * Ledger retention: forgets the source's requests received before `receivedBefore`, and all but
   * its newest `keep` (by receipt time, then request id). Answers how many were forgotten.
   */
  pruneRequests(sourceId: string, receivedBefore: number, keep: number): Promise<number>;

  upsertStatus(status: SourceStatusRecord): Promise<void>;
  getStatus(sourceId: string): Promise<SourceStatusRecord | undefined>;

  insertObservations(observations: readonly ObservationRecord[]): Promise<void>;
  getObservation(observationId: string): Promise<ObservationRecord | undefined>;
  /** The source's newest observation of a kind, by the producer's observation time. */
  latestObservation(sourceId: string, kind: ObservationKind): Promise<ObservationRecord | undefined>;
  /** Keeps the source's newest `keep` observations of a kind, in latestObservation's order; answers how many went. */
  pruneObservations(sourceId: string, kind: ObservationKind, keep: number): Promise<number>;
  /** The UTF-8 bytes of every observation payload the room holds (its storage quota's measure). */
  roomObservationBytes(roomId: string): Promise<number>;
  /** The source's oldest observations, in reverse latestObservation order, with their sizes; at most `limit`. */
  oldestObservations(sourceId: string, limit: number): Promise<ObservationSize[]>;
  deleteObservations(observationIds: readonly string[]): Promise<number>;

  insertProbe(probe: ProbeRecord): Promise<void>;
  getProbe(probeId: string): Promise<ProbeRecord | undefined>;
  /**
   * The source's unexpired pending or delivered probes, oldest first, at most `limit`; the pending
   * ones are marked delivered at `at` (a poll that is lost is answered again by the next one).
   */
  takeProbes(sourceId: string, at: number, limit: number): Promise<ProbeRecord[]>;
  /** Answers an open (pending or delivered, unexpired) probe once; false otherwise. */
  answerProbe(
    probeId: string,
    status: Extract<ProbeStatus, 'completed' | 'unsupported' | 'failed'>,
    observationId: string | null,
    at: number,
  ): Promise<boolean>;
  /** Marks the open probe expired (its turn gave up waiting); false when already answered. */
  expireProbe(probeId: string, at: number): Promise<boolean>;
}
