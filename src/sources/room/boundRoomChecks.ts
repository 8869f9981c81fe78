/**
 * The rechecks every read of the bound room lane passes (docs/spec/shared-live-room-requirements.md
 * §9 BRE-03..BRE-06, §8 ING-02, ING-05; docs/rooms.md "Bound room evidence"). Each failure is a
 * typed HelixError, so the turn (or the continue before it) fails with the reason, never with a
 * generic unavailable source. Reads only; nothing here writes.
 */
import type { EnvironmentAdapterRegistry } from '../../domain/environmentAdapterRegistry.js';
import { HelixError } from '../../domain/errors.js';
import type { ObservationRecord } from '../../domain/roomObservations.js';
import { isCurrentMember, roleMayBindRuns, type RoomRecord, type RunRoomBindingRecord } from '../../domain/rooms.js';
import {
  SOURCE_LIMITS,
  sourceIsLive,
  type AdapterAdmissionRecord,
  type RoomSourceRecord,
} from '../../domain/roomSources.js';
import { sourceStanding } from '../../domain/sourceStanding.js';
import type { UnitOfWork } from '../../store/port.js';
import type { AccountPolicyReader, BoundRoomLane } from './boundRoomLane.js';

/** The run's binding and the room it names, as they are now. */
export interface BoundRoom {
  readonly binding: RunRoomBindingRecord;
  readonly room: RoomRecord;
}

/** A live room source and the admission it currently reads under. */
export interface AdmittedSource {
  readonly source: RoomSourceRecord;
  readonly admission: AdapterAdmissionRecord;
}

/**
 * BRE-03, BRE-04, BRE-05: the run's owner still holds an active binding, the room is active, and
 * the participant who bound it is still a member in the same role under the exact consent version
 * and receipt it bound with, which must also be the room's current version.
 */
export const checkBinding = async (read: UnitOfWork, runId: string): Promise<BoundRoom> => {
  const run = await read.runs.get(runId);
  const binding = await read.rooms.getActiveRunBinding(runId);
  if (run === undefined || binding === undefined || binding.ownerHash !== run.ownerHash)
    throw new HelixError('room_evidence_binding_missing');
  const room = await read.rooms.getRoom(binding.roomId);
  if (room === undefined) throw new HelixError('room_evidence_binding_missing');
  if (room.status !== 'active') throw new HelixError('room_evidence_room_inactive');
  const member = await read.rooms.getMember(room.roomId, binding.accountId);
  const unchanged =
    isCurrentMember(member) &&
    member.role === binding.role &&
    roleMayBindRuns(member.role) &&
    member.acceptedConsentVersion === binding.consentVersion &&
    member.consentReceiptRef === binding.consentReceiptRef &&
    room.consentVersion === binding.consentVersion;
  if (!unchanged) throw new HelixError('room_evidence_membership_changed');
  return { binding, room };
};

/**
 * SRC-06: a live source counts only while its creator is a current owner of the room whose account
 * policy keeps `shared_live_room` (src/domain/sourceStanding.ts); what it observed before its
 * creator was removed or locked out is nobody's authorized evidence.
 */
const inStanding = async (read: UnitOfWork, policies: AccountPolicyReader, source: RoomSourceRecord) => {
  const creator = await read.rooms.getMember(source.roomId, source.createdBy);
  return sourceStanding(creator, await policies.forAccount(source.createdBy)) === 'authorized';
};

/**
 * ING-02: the room's active, credentialed, unexpired sources in standing, each with a current
 * admission made under the profile contract the registry holds now. Throws the first source's
 * failure when none qualifies.
 */
export const admittedSources = async (
  read: UnitOfWork,
  roomId: string,
  lane: Pick<BoundRoomLane, 'adapters' | 'policies'>,
  now: number,
): Promise<AdmittedSource[]> => {
  const live: RoomSourceRecord[] = [];
  for (const source of await read.roomSources.listSources(roomId, SOURCE_LIMITS.listMax))
    if (sourceIsLive(source, now) && (await inStanding(read, lane.policies, source))) live.push(source);
  if (live.length === 0) throw new HelixError('room_evidence_source_unavailable');
  const { adapters } = lane;
  const admitted: AdmittedSource[] = [];
  let firstFailure: HelixError | undefined;
  for (const source of live) {
    try {
      admitted.push({ source, admission: await currentAdmission(read, source, adapters) });
    } catch (err) {
      if (!(err instanceof HelixError)) throw err;
      firstFailure ??= err;
    }
  }
  if (admitted.length === 0) throw firstFailure ?? new HelixError('room_evidence_source_unavailable');
  return admitted;
};

const currentAdmission = async (
  read: UnitOfWork,
  source: RoomSourceRecord,
  adapters: EnvironmentAdapterRegistry,
): Promise<AdapterAdmissionRecord> => {
  const admission = await read.roomSources.getCurrentAdmission(source.sourceId);
  if (admission === undefined || admission.invalidatedAt !== null)
    throw new HelixError('environment_adapter_admission_required');
  const profile = adapters.byId(admission.profileId);
  if (
    profile === undefined ||
    profile.contractHash !== admission.profileHash ||
    source.profileHash !== admission.profileHash ||
    source.profileId !== admission.profileId
  )
    throw new HelixError('environment_adapter_contract_changed');
  return admission;
};

/**
 * ING-02, ING-03: the observation arrived under exactly this source's current admission (room,
 * source, world, profile id/version/hash, manifest, producer epoch). Anything else is another
 * connection's data and reads as a mismatch.
 */
export const checkProvenance = (observation: ObservationRecord, roomId: string, admitted: AdmittedSource): void => {
  const { source, admission } = admitted;
  const exact =
    observation.roomId === roomId &&
    observation.sourceId === source.sourceId &&
    observation.worldId === source.worldId &&
    observation.ownerHash === admission.ownerHash &&
    observation.admissionId === admission.admissionId &&
    observation.profileId === admission.profileId &&
    observation.profileVersion === admission.profileVersion &&
    observation.profileHash === admission.profileHash &&
    observation.manifestId === admission.manifestId &&
    observation.manifestHash === admission.manifestHash &&
    observation.producerEpochHash === admission.producerEpochHash;
  if (!exact) throw new HelixError('room_evidence_identity_mismatch');
};

/** ING-05: observed within the ceiling, on either side of now (a producer clock far ahead is not fresh either). */
export const checkFreshness = (observation: ObservationRecord, now: number, maxAgeMs: number): void => {
  if (Math.abs(now - observation.observedAt) > maxAgeMs) throw new HelixError('room_evidence_stale');
};

/**
 * The latest snapshot of one admitted source, checked for provenance and freshness; a source that
 * never reported is stale.
 */
export const freshSnapshot = async (
  read: UnitOfWork,
  roomId: string,
  admitted: AdmittedSource,
  now: number,
  maxAgeMs: number,
): Promise<ObservationRecord> => {
  const observation = await read.roomIngress.latestObservation(admitted.source.sourceId, 'snapshot');
  if (observation === undefined) throw new HelixError('room_evidence_stale');
  checkProvenance(observation, roomId, admitted);
  checkFreshness(observation, now, maxAgeMs);
  return observation;
};
