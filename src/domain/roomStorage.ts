/**
 * How much a room's sources may keep in the store (docs/rooms.md "Storage bounds",
 * docs/configuration.md): every tenant shares the disk, so observations and the ingress request
 * ledger are pruned as they are written, and a room's observations have a hard quota.
 */
export interface RoomStorageLimits {
  /** HELIX_ROOM_OBSERVATIONS_PER_SOURCE: the newest observations kept per source and kind. */
  readonly observationsPerSource: number;
  /** HELIX_ROOM_STORAGE_QUOTA_BYTES: the UTF-8 bytes of observation payloads one room may hold. */
  readonly roomQuotaBytes: number;
  /** HELIX_ROOM_INGRESS_REPLAY_WINDOW_MS: how long an accepted ingress request is answered again. */
  readonly replayWindowMs: number;
  /** HELIX_ROOM_INGRESS_LEDGER_PER_SOURCE: the newest ledger entries kept per source. */
  readonly ledgerPerSource: number;
}

/**
 * The defaults, and their bounds. At the default per-binding rate limit (600 a minute), a source
 * sends 36,000 requests in the hour-long replay window, so the ledger's count bound never cuts the
 * window short at that rate; 1,000 snapshots of the reference connector (about 11 KiB each) are
 * about 11 MiB, so the 128 MiB room quota holds about a dozen full sources.
 */
export const ROOM_STORAGE_SETTINGS = {
  observationsPerSource: { default: 1_000, min: 1, max: 1_000_000 },
  roomQuotaBytes: { default: 128 * 1024 * 1024, min: 1024, max: 1024 ** 4 },
  replayWindowMs: { default: 3_600_000, min: 60_000, max: 7 * 86_400_000 },
  ledgerPerSource: { default: 36_000, min: 100, max: 10_000_000 },
} as const;

export const DEFAULT_ROOM_STORAGE_LIMITS: RoomStorageLimits = {
  observationsPerSource: ROOM_STORAGE_SETTINGS.observationsPerSource.default,
  roomQuotaBytes: ROOM_STORAGE_SETTINGS.roomQuotaBytes.default,
  replayWindowMs: ROOM_STORAGE_SETTINGS.replayWindowMs.default,
  ledgerPerSource: ROOM_STORAGE_SETTINGS.ledgerPerSource.default,
};
