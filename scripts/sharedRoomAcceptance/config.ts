import { IdempotencyKeySchema } from '../../src/api/schemas.js';
import { isCredentialShaped } from '../../src/domain/credentialShape.js';
import {
  admitTarget,
  isLoopbackHost,
  ProbeConfigError,
  readAccessToken,
  readBoundedInteger,
  readSwitch,
  setting,
  type Env,
} from '../deploymentProbe/settings.js';

/**
 * The harness's settings (docs/spec/shared-live-room-requirements.md HAR-03 to HAR-11, D-08). Only
 * the HELIX_SHARED_ROOM_ACCEPTANCE_ names are read: D-08 keeps the CASIMIRBOT_ aliases for the
 * provider conformance probe, not for this harness. Every refusal is a ProbeConfigError (exit 2)
 * raised before any request, naming the variable and never echoing its value.
 */
export const HARNESS_SETTINGS = {
  baseUrl: 'HELIX_SHARED_ROOM_ACCEPTANCE_BASE_URL',
  network: 'HELIX_SHARED_ROOM_ACCEPTANCE_NETWORK',
  allowLoopbackHttp: 'HELIX_SHARED_ROOM_ACCEPTANCE_ALLOW_LOOPBACK_HTTP',
  accessToken: 'HELIX_SHARED_ROOM_ACCEPTANCE_ACCESS_TOKEN',
  allowMutation: 'HELIX_SHARED_ROOM_ACCEPTANCE_ALLOW_MUTATION',
  timeoutMs: 'HELIX_SHARED_ROOM_ACCEPTANCE_TIMEOUT_MS',
  totalTimeoutMs: 'HELIX_SHARED_ROOM_ACCEPTANCE_TOTAL_TIMEOUT_MS',
  requireComplete: 'HELIX_SHARED_ROOM_ACCEPTANCE_REQUIRE_COMPLETE',
  roomIdempotencyKey: 'HELIX_SHARED_ROOM_ACCEPTANCE_ROOM_IDEMPOTENCY_KEY',
} as const;

/** D-08: a keyed local server, not the contract's product-specific default. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:1522';

/** HAR-08 bounds; the default is [impl]. */
export const REQUEST_TIMEOUT = { min: 1_000, max: 600_000, fallback: 30_000 } as const;
/** HAR-09 bounds and default. */
export const TOTAL_TIMEOUT = { min: 30_000, max: 3_600_000, fallback: 600_000 } as const;

/**
 * HAR-11: one caller-stable key, so every invocation by the same owner replays the same room
 * (idempotency is scoped by owner) instead of leaving a new one behind: rooms cannot be closed.
 */
export const DEFAULT_ROOM_IDEMPOTENCY_KEY = 'helix-shared-room-acceptance-v1';

export interface HarnessConfig {
  /** The target origin; every request stays on it. */
  readonly target: string;
  readonly network: boolean;
  readonly loopbackOptIn: boolean;
  /** Plain http to a loopback host without the opt-in: fine for the dry run, refused for the network. */
  readonly loopbackHttpNeedsOptIn: boolean;
  readonly accessToken: string | undefined;
  readonly allowMutation: boolean;
  readonly requireComplete: boolean;
  readonly timeoutMs: number;
  readonly totalTimeoutMs: number;
  /** The end of the total budget kept back for cleanup (HAR-09). */
  readonly cleanupReserveMs: number;
  readonly roomIdempotencyKey: string;
  readonly roomIdempotencyKeySource: 'default' | 'override';
  /** Every configured credential value, for redaction. */
  readonly secrets: readonly string[];
}

/**
 * The cleanup window: a third of the total budget, but never more than four request timeouts
 * (a withdrawal and a cancellation, each retried once, is the worst case).
 */
export const cleanupReserve = (totalTimeoutMs: number, timeoutMs: number): number =>
  Math.min(Math.floor(totalTimeoutMs / 3), 4 * timeoutMs);

const readRoomKey = (env: Env): string | undefined => {
  const name = HARNESS_SETTINGS.roomIdempotencyKey;
  const key = setting(env, [name]);
  if (key === undefined) return undefined;
  if (!IdempotencyKeySchema.safeParse(key).success)
    throw new ProbeConfigError('invalid_idempotency_key', `${name} must be 8-200 printable ASCII characters`);
  // The key is printed in the report: a secret used as a key would be leaked, or redacted out of use.
  if (isCredentialShaped(key))
    throw new ProbeConfigError('invalid_idempotency_key', `${name} looks like a credential; choose a plain label`);
  return key;
};

/**
 * Plain http is admitted only for a loopback host. The dry run sends nothing, so there it is
 * enough that the target could be admitted; network mode also needs the explicit opt-in (HAR-05).
 */
const readTarget = (env: Env, network: boolean, loopbackOptIn: boolean) => {
  const names = { baseUrl: HARNESS_SETTINGS.baseUrl, allowLoopbackHttp: HARNESS_SETTINGS.allowLoopbackHttp };
  const raw = setting(env, [HARNESS_SETTINGS.baseUrl]) ?? DEFAULT_BASE_URL;
  const target = admitTarget(raw, network ? loopbackOptIn : true, names);
  const url = new URL(target);
  return { target, loopbackHttpNeedsOptIn: url.protocol === 'http:' && isLoopbackHost(url.hostname) && !loopbackOptIn };
};

export const readHarnessConfig = (env: Env): HarnessConfig => {
  const network = readSwitch(env, [HARNESS_SETTINGS.network]);
  const loopbackOptIn = readSwitch(env, [HARNESS_SETTINGS.allowLoopbackHttp]);
  const accessToken = readAccessToken(env, [HARNESS_SETTINGS.accessToken]);
  const allowMutation = readSwitch(env, [HARNESS_SETTINGS.allowMutation]);
  const requireComplete = readSwitch(env, [HARNESS_SETTINGS.requireComplete]);
  const timeoutMs = readBoundedInteger(env, HARNESS_SETTINGS.timeoutMs, REQUEST_TIMEOUT);
  const totalTimeoutMs = readBoundedInteger(env, HARNESS_SETTINGS.totalTimeoutMs, TOTAL_TIMEOUT);
  const overriddenKey = readRoomKey(env);
  return {
    ...readTarget(env, network, loopbackOptIn),
    network,
    loopbackOptIn,
    accessToken,
    allowMutation,
    requireComplete,
    timeoutMs,
    totalTimeoutMs,
    cleanupReserveMs: cleanupReserve(totalTimeoutMs, timeoutMs),
    roomIdempotencyKey: overriddenKey ?? DEFAULT_ROOM_IDEMPOTENCY_KEY,
    roomIdempotencyKeySource: overriddenKey === undefined ? 'default' : 'override',
    secrets: accessToken === undefined ? [] : [accessToken],
  };
};
