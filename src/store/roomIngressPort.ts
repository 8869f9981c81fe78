import type {
  IngressRequestRecord,
  ObservationKind,
  ObservationRecord,
  ProbeRecord,
  ProbeStatus,
  SourceStatusRecord,
} from '../domain/roomObservations.js';

/**
 * The source ingress lane in the storage port (UnitOfWork.roomIngress; docs/rooms.md "Source
 * ingress"). Request identities are inserted once: the primary key makes a concurrent replay of
 * the same `(source, request_id)` fail, so at most one of them stores anything.
 */
export interface RoomIngressRepository {
  getRequest(sourceId: string, requestId: string): Promise<IngressRequestRecord | undefined>;
  /** Records an accepted request; false when the identity is already used (nothing written). */
  insertRequest(request: IngressRequestRecord): Promise<boolean>;

  upsertStatus(status: SourceStatusRecord): Promise<void>;
  getStatus(sourceId: string): Promise<SourceStatusRecord | undefined>;

  insertObservations(observations: readonly ObservationRecord[]): Promise<void>;
  getObservation(observationId: string): Promise<ObservationRecord | undefined>;
  /** The source's newest observation of a kind, by the producer's observation time. */
  latestObservation(sourceId: string, kind: ObservationKind): Promise<ObservationRecord | undefined>;

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
