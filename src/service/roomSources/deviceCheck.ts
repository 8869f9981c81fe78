import type { Principal } from '../../auth/principal.js';
import {
  DEVICE_CHECK_LIMITS,
  type DeviceCheck,
  type DeviceCheckReceipt,
  type DeviceCheckSource,
  deviceCheckReceipt,
} from '../../api/deviceCheckViews.js';
import { HelixError } from '../../domain/errors.js';
import { isCurrentMember, type RoomRecord } from '../../domain/rooms.js';
import type { RoomSourceRecord } from '../../domain/roomSources.js';
import type { UnitOfWork } from '../../store/port.js';
import { admitCaller, loadCallerRoom, type RoomCaller } from '../rooms/access.js';
import type { RoomDeps } from '../rooms/deps.js';
import type { ServiceResult } from '../result.js';

const iso = (ms: number | null | undefined): string | null =>
  ms === null || ms === undefined ? null : new Date(ms).toISOString();

/**
 * One source, check by check, with the ceilings of its adapter profile: a live credential, a
 * current manifest admission made under the profile's present contract, a heartbeat within the
 * heartbeat ceiling that reports the game connected, and a snapshot within the observation ceiling.
 */
const checkSource = async (
  deps: RoomDeps,
  read: UnitOfWork,
  source: RoomSourceRecord,
  now: number,
): Promise<DeviceCheckSource> => {
  const profile = deps.adapters.byId(source.profileId);
  const [admission, status, latest] = await Promise.all([
    read.roomSources.getCurrentAdmission(source.sourceId),
    read.roomIngress.getStatus(source.sourceId),
    read.roomIngress.latestObservation(source.sourceId, 'snapshot'),
  ]);
  const live = source.status === 'active' && source.expiresAt > now;
  const ceilings = profile?.profile.ceilings;
  const checks: Record<DeviceCheck, boolean> = {
    credentialed: live && source.credentialHash !== null,
    admitted: live && admission !== undefined && admission.profileHash === profile?.contractHash,
    heartbeat_fresh:
      status !== undefined && ceilings !== undefined && now - status.lastHeartbeatAt <= ceilings.heartbeat_max_age_ms,
    game_connected: status?.gameConnected === true,
    observation_fresh:
      latest !== undefined &&
      ceilings !== undefined &&
      latest.admissionId === admission?.admissionId &&
      now - latest.observedAt <= ceilings.observation_max_age_ms,
  };
  return {
    source_id: source.sourceId,
    source_label: source.label,
    domain_adapter: source.domainAdapter,
    world_id: source.worldId,
    status: source.status === 'active' && !live ? 'expired' : source.status,
    checks,
    last_heartbeat_at: iso(status?.lastHeartbeatAt),
    last_observation_at: iso(latest?.observedAt),
    ready: Object.values(checks).every(Boolean),
  };
};

const checkRoom = async (
  deps: RoomDeps,
  room: RoomRecord,
  now: number,
): Promise<DeviceCheckReceipt['rooms'][number]> => {
  const read = deps.store.read;
  const rows = await read.roomSources.listSources(room.roomId, DEVICE_CHECK_LIMITS.sourcesPerRoom + 1);
  const sources: DeviceCheckSource[] = [];
  for (const source of rows.slice(0, DEVICE_CHECK_LIMITS.sourcesPerRoom))
    sources.push(await checkSource(deps, read, source, now));
  return {
    room_id: room.roomId,
    title: room.title,
    sources,
    sources_truncated: rows.length > DEVICE_CHECK_LIMITS.sourcesPerRoom,
    ready: room.status === 'active' && sources.some((s) => s.ready),
  };
};

/** The caller's current rooms, or the one it names (not found unless it is a current member: RREST-03). */
const roomsToCheck = async (
  deps: RoomDeps,
  caller: RoomCaller,
  roomId: string | undefined,
): Promise<{ rooms: RoomRecord[]; truncated: boolean }> => {
  if (roomId !== undefined)
    return { rooms: [(await loadCallerRoom(deps.store.read.rooms, roomId, caller)).room], truncated: false };
  const rooms: RoomRecord[] = [];
  for (const room of await deps.store.read.rooms.listRoomsOfMember(caller.accountId, caller.tenantHash)) {
    if (isCurrentMember(await deps.store.read.rooms.getMember(room.roomId, caller.accountId))) rooms.push(room);
  }
  return { rooms: rooms.slice(0, DEVICE_CHECK_LIMITS.rooms), truncated: rooms.length > DEVICE_CHECK_LIMITS.rooms };
};

/**
 * `helix_environment_device_check` (DC-02, DC-04; docs/rooms.md "Device Check"): whether the
 * environment sources of the caller's rooms (or of the one it names) can deliver fresh evidence
 * now. Needs only `helix.rooms.read`; any current member may check, since the receipt holds
 * connection state only (DC-03): no credential, epoch, manifest or observation content.
 */
export const deviceCheck = async (
  deps: RoomDeps,
  principal: Principal,
  roomId: unknown,
): Promise<ServiceResult<DeviceCheckReceipt>> => {
  if (roomId !== undefined && typeof roomId !== 'string')
    throw new HelixError('invalid_request', { issues: [{ path: 'room_id', message: 'must be a string' }] });
  const caller = await admitCaller(deps, principal, 'environment.device_check', 'feature_required');
  const now = deps.now();
  const { rooms, truncated } = await roomsToCheck(deps, caller, roomId);
  const checked: DeviceCheckReceipt['rooms'] = [];
  for (const room of rooms) checked.push(await checkRoom(deps, room, now));
  return { status: 200, body: deviceCheckReceipt(now, checked, truncated), replayed: false };
};
