// The connector's configuration: from a JSON file named by HELIX_CONNECTOR_CONFIG, overridden by
// environment variables (docs/connectors.md#configuration). Never from argv, where every local user
// could read a bearer in the process list; no bearer is ever logged or echoed. The action bearer is
// optional: without it the connector stays read-only (no action loop).
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { MINECRAFT_PROTOCOL_VERSION } from './protocolVersion.js';
import { manifestRequest } from './wire.js';

export const MINECRAFT_AUTH_MODES = ['offline', 'microsoft'] as const;

const intervalMs = z.coerce.number().int().min(200).max(600_000);

const bearer = z.string().min(16).max(4096).regex(/^\S+$/);

const configSchema = z.strictObject({
  base_url: z.url({ protocol: /^https?$/ }),
  binding_id: z.string().regex(/^[A-Za-z0-9._:-]{1,200}$/),
  world_id: manifestRequest.shape.world_id,
  source_bearer: bearer,
  /** The binding's action credential (M-02); absent: read-only. */
  action_bearer: bearer.optional(),
  minecraft: z.strictObject({
    host: z.string().min(1).max(255).default('127.0.0.1'),
    port: z.coerce.number().int().min(1).max(65_535).default(25_565),
    username: z
      .string()
      .regex(/^[A-Za-z0-9_]{3,16}$/)
      .default('helix_connector'),
    auth: z.enum(MINECRAFT_AUTH_MODES).default('offline'),
    version: z.literal(MINECRAFT_PROTOCOL_VERSION).default(MINECRAFT_PROTOCOL_VERSION),
  }),
  intervals: z.strictObject({
    snapshot_ms: intervalMs.default(5_000),
    heartbeat_ms: intervalMs.default(10_000),
    probe_poll_ms: intervalMs.default(2_000),
    action_poll_ms: intervalMs.default(1_000),
  }),
});
export type ConnectorConfig = z.infer<typeof configSchema>;

/** Environment variable -> path in the configuration object. */
const ENV_FIELDS = [
  ['HELIX_CONNECTOR_BASE_URL', ['base_url']],
  ['HELIX_CONNECTOR_BINDING_ID', ['binding_id']],
  ['HELIX_CONNECTOR_WORLD_ID', ['world_id']],
  ['HELIX_CONNECTOR_SOURCE_BEARER', ['source_bearer']],
  ['HELIX_CONNECTOR_ACTION_BEARER', ['action_bearer']],
  ['MINECRAFT_HOST', ['minecraft', 'host']],
  ['MINECRAFT_PORT', ['minecraft', 'port']],
  ['MINECRAFT_USERNAME', ['minecraft', 'username']],
  ['MINECRAFT_AUTH', ['minecraft', 'auth']],
  ['MINECRAFT_VERSION', ['minecraft', 'version']],
  ['HELIX_CONNECTOR_SNAPSHOT_INTERVAL_MS', ['intervals', 'snapshot_ms']],
  ['HELIX_CONNECTOR_HEARTBEAT_INTERVAL_MS', ['intervals', 'heartbeat_ms']],
  ['HELIX_CONNECTOR_PROBE_POLL_INTERVAL_MS', ['intervals', 'probe_poll_ms']],
  ['HELIX_CONNECTOR_ACTION_POLL_INTERVAL_MS', ['intervals', 'action_poll_ms']],
] as const;

type Raw = Record<string, unknown>;

const readJsonFile = (path: string, what: string): Raw => {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Raw;
  } catch {
    // fall through: the message names the file, never its content (it may hold the bearer)
  }
  throw new Error(`${what} ${path} is not a readable JSON object`);
};

const setPath = (target: Raw, path: readonly string[], value: string): void => {
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  const child = (typeof target[head] === 'object' && target[head] !== null ? target[head] : {}) as Raw;
  target[head] = child;
  setPath(child, rest, value);
};

/** Reads the configuration once at start-up; a bad value stops the connector with the field's name. */
export const readConfig = (env: NodeJS.ProcessEnv = process.env): ConnectorConfig => {
  const file = env.HELIX_CONNECTOR_CONFIG;
  const raw: Raw = file === undefined ? {} : readJsonFile(file, 'HELIX_CONNECTOR_CONFIG');
  raw.minecraft ??= {};
  raw.intervals ??= {};
  for (const [variable, path] of ENV_FIELDS) {
    const value = env[variable];
    if (value !== undefined && value !== '') setPath(raw, path, value);
  }
  for (const [variable, field] of BEARER_FILES) {
    const bearerFile = env[variable];
    if (bearerFile !== undefined && bearerFile !== '') raw[field] = readBearerFile(variable, bearerFile);
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    // Name the fields only: zod's messages could quote the value, and one of them is the bearer.
    const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || '(root)'))];
    throw new Error(`invalid connector configuration: ${fields.join(', ')}`);
  }
  assertSafeTransport(parsed.data.base_url);
  // M-02: one credential per lane. The same value in both would let the action lane's holder read
  // the ingress lane and the other way round, so it is refused rather than silently accepted.
  if (parsed.data.action_bearer === parsed.data.source_bearer) {
    throw new Error('invalid connector configuration: action_bearer must differ from source_bearer');
  }
  return parsed.data;
};

/** A bearer may come from a file (mode 600) instead of the environment; the file wins. */
const BEARER_FILES = [
  ['HELIX_CONNECTOR_SOURCE_BEARER_FILE', 'source_bearer'],
  ['HELIX_CONNECTOR_ACTION_BEARER_FILE', 'action_bearer'],
] as const;

const readBearerFile = (variable: string, path: string): string => {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    throw new Error(`${variable} ${path} is not readable`);
  }
};

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The bearer goes over plain HTTP only to this machine; anything else needs HTTPS (fail closed). */
const assertSafeTransport = (baseUrl: string): void => {
  const url = new URL(baseUrl);
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
    throw new Error('invalid connector configuration: base_url must use https unless Helix runs on loopback');
  }
};
