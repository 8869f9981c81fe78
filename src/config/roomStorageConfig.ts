import { ROOM_STORAGE_SETTINGS as S, type RoomStorageLimits } from '../domain/roomStorage.js';
import { type Env, integer } from './env.js';

/** The room storage bounds (src/domain/roomStorage.ts); a value out of bounds stops start-up naming it. */
export const roomStorageLimits = (env: Env): RoomStorageLimits => ({
  observationsPerSource: integer(
    env,
    'HELIX_ROOM_OBSERVATIONS_PER_SOURCE',
    S.observationsPerSource.default,
    S.observationsPerSource.min,
    S.observationsPerSource.max,
  ),
  roomQuotaBytes: integer(
    env,
    'HELIX_ROOM_STORAGE_QUOTA_BYTES',
    S.roomQuotaBytes.default,
    S.roomQuotaBytes.min,
    S.roomQuotaBytes.max,
  ),
  replayWindowMs: integer(
    env,
    'HELIX_ROOM_INGRESS_REPLAY_WINDOW_MS',
    S.replayWindowMs.default,
    S.replayWindowMs.min,
    S.replayWindowMs.max,
  ),
  ledgerPerSource: integer(
    env,
    'HELIX_ROOM_INGRESS_LEDGER_PER_SOURCE',
    S.ledgerPerSource.default,
    S.ledgerPerSource.min,
    S.ledgerPerSource.max,
  ),
});
