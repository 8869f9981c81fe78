import { randomBytes } from 'node:crypto';
import { EMBODIMENT_LIMITS, type EnvironmentSubjectRecord } from '../../domain/embodiment.js';
import { HelixError } from '../../domain/errors.js';
import { sha256Hex } from '../../domain/hashing.js';
import { hasActionLane, type RoomSourceRecord, sourceIsLive } from '../../domain/roomSources.js';
import type { UnitOfWork } from '../../store/port.js';
import type { RoomDeps } from '../rooms/deps.js';

const unavailable = (): HelixError => new HelixError('environment_source_unavailable');

/**
 * Whether the source's connector can act now: live with an action credential, admitted under the
 * profile's present contract, and heard from within the profile's heartbeat ceiling with the game
 * connected. A connector that vanished is past its ceiling (MC-12, M-03).
 */
export const connectorIsLive = async (
  deps: RoomDeps,
  uow: UnitOfWork,
  source: RoomSourceRecord,
  now: number,
): Promise<boolean> => {
  if (!sourceIsLive(source, now) || source.actionCredentialHash === null) return false;
  const profile = deps.adapters.byId(source.profileId);
  const [admission, status] = await Promise.all([
    uow.roomSources.getCurrentAdmission(source.sourceId),
    uow.roomIngress.getStatus(source.sourceId),
  ]);
  if (profile === undefined || admission === undefined || admission.profileHash !== profile.contractHash) return false;
  return (
    status?.gameConnected === true &&
    status.producerEpochHash === admission.producerEpochHash &&
    now - status.lastHeartbeatAt <= profile.profile.ceilings.heartbeat_max_age_ms
  );
};

/** The player name of the source's newest snapshot under its current admission, if any. */
const embodiedPlayer = async (uow: UnitOfWork, source: RoomSourceRecord): Promise<string | undefined> => {
  const [admission, latest] = await Promise.all([
    uow.roomSources.getCurrentAdmission(source.sourceId),
    uow.roomIngress.latestObservation(source.sourceId, 'snapshot'),
  ]);
  if (admission === undefined || latest === undefined || latest.admissionId !== admission.admissionId) return undefined;
  const payload = JSON.parse(latest.payloadJson) as { player?: { username?: unknown } };
  const name = payload.player?.username;
  return typeof name === 'string' ? name : undefined;
};

/**
 * MC-08, MC-09: the one player a source's connector embodies, as the room's opaque subject. The
 * subject is keyed by a SHA-256 of the source id and the player name, so the same player keeps its
 * `subject_ref` while a new name (another account on the connector) is a new subject; the name
 * itself is never stored here or answered.
 */
export const currentSubject = async (
  uow: UnitOfWork,
  source: RoomSourceRecord,
  now: number,
): Promise<EnvironmentSubjectRecord | undefined> => {
  if (!hasActionLane(source.domainAdapter)) return undefined;
  const player = await embodiedPlayer(uow, source);
  if (player === undefined) return undefined;
  return uow.embodiment.ensureSubject({
    subjectRef: `esr_${randomBytes(16).toString('hex')}`,
    sourceId: source.sourceId,
    roomId: source.roomId,
    ownerHash: source.ownerHash,
    playerKey: sha256Hex(`${source.sourceId}\n${player}`),
    holderAccountId: null,
    leaseExpiresAt: null,
    createdAt: now,
  });
};

/** The subject the member holds a lease on in this room, with its source; `environment_subject_required` if none. */
export const heldSubject = async (
  uow: UnitOfWork,
  roomId: string,
  accountId: string,
  now: number,
  sourceLabel: string | undefined,
): Promise<{ subject: EnvironmentSubjectRecord; source: RoomSourceRecord }> => {
  for (const subject of await uow.embodiment.listSubjects(roomId, EMBODIMENT_LIMITS.listMax)) {
    if (subject.holderAccountId !== accountId || (subject.leaseExpiresAt ?? 0) <= now) continue;
    const source = await uow.roomSources.getSource(subject.sourceId);
    if (source === undefined || (sourceLabel !== undefined && source.label !== sourceLabel)) continue;
    return { subject, source };
  }
  throw new HelixError('environment_subject_required');
};

export const requireConnector = async (
  deps: RoomDeps,
  uow: UnitOfWork,
  source: RoomSourceRecord,
  now: number,
): Promise<void> => {
  if (!(await connectorIsLive(deps, uow, source, now))) throw unavailable();
};
