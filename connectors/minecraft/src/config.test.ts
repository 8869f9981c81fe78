import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig } from './config.js';

const BEARER = 'hlxsrc_secret_0123456789abcdef';
const ACTION_BEARER = 'hlxact_secret_0123456789abcdef';
const ENV = {
  HELIX_CONNECTOR_BASE_URL: 'http://127.0.0.1:1522',
  HELIX_CONNECTOR_BINDING_ID: 'binding_1',
  HELIX_CONNECTOR_WORLD_ID: 'minecraft:home',
  HELIX_CONNECTOR_SOURCE_BEARER: BEARER,
};

const tempFile = (name: string, content: string): string => {
  const path = join(mkdtempSync(join(tmpdir(), 'helix-connector-')), name);
  writeFileSync(path, content);
  return path;
};

describe('readConfig', () => {
  it('reads the environment and fills the Minecraft defaults (offline, 1.21.4, loopback)', () => {
    const config = readConfig(ENV);
    expect(config).toMatchObject({ base_url: 'http://127.0.0.1:1522', binding_id: 'binding_1', source_bearer: BEARER });
    expect(config.minecraft).toEqual({
      host: '127.0.0.1',
      port: 25_565,
      username: 'helix_connector',
      auth: 'offline',
      version: '1.21.4',
    });
    expect(config.intervals).toEqual({
      snapshot_ms: 5_000,
      heartbeat_ms: 10_000,
      probe_poll_ms: 2_000,
      action_poll_ms: 1_000,
    });
    // M-02: without an action credential the connector stays read-only.
    expect(config.action_bearer).toBeUndefined();
  });

  it('M-02: reads the action credential from the environment or its own file, and refuses it equal to the source bearer', () => {
    expect(readConfig({ ...ENV, HELIX_CONNECTOR_ACTION_BEARER: ACTION_BEARER }).action_bearer).toBe(ACTION_BEARER);
    const fromFile = readConfig({
      ...ENV,
      HELIX_CONNECTOR_ACTION_BEARER_FILE: tempFile('action', `${ACTION_BEARER}\n`),
      HELIX_CONNECTOR_ACTION_POLL_INTERVAL_MS: '250',
    });
    expect(fromFile.action_bearer).toBe(ACTION_BEARER);
    expect(fromFile.intervals.action_poll_ms).toBe(250);
    const refusal = (() => {
      try {
        readConfig({ ...ENV, HELIX_CONNECTOR_ACTION_BEARER: BEARER });
      } catch (error) {
        return (error as Error).message;
      }
      return 'no error';
    })();
    expect(refusal).toBe('invalid connector configuration: action_bearer must differ from source_bearer');
    expect(() => readConfig({ ...ENV, HELIX_CONNECTOR_ACTION_BEARER: 'short' })).toThrow(
      'invalid connector configuration: action_bearer',
    );
  });

  it('reads a configuration file, with the environment overriding it and the bearer from its own file', () => {
    const file = tempFile(
      'connector.json',
      JSON.stringify({
        base_url: 'https://helix.example.com',
        binding_id: 'from_file',
        world_id: 'minecraft:file',
        minecraft: { host: 'mc.example.com', port: 25_570 },
      }),
    );
    const config = readConfig({
      HELIX_CONNECTOR_CONFIG: file,
      HELIX_CONNECTOR_BINDING_ID: 'from_env',
      HELIX_CONNECTOR_SOURCE_BEARER_FILE: tempFile('bearer', `${BEARER}\n`),
    });
    expect(config).toMatchObject({
      base_url: 'https://helix.example.com',
      binding_id: 'from_env',
      source_bearer: BEARER,
    });
    expect(config.minecraft).toMatchObject({ host: 'mc.example.com', port: 25_570 });
  });

  it('names a bad field without quoting its value, so a malformed bearer never reaches a log', () => {
    const bad = `${BEARER} with spaces`;
    expect(() => readConfig({ ...ENV, HELIX_CONNECTOR_SOURCE_BEARER: bad })).toThrow(
      'invalid connector configuration: source_bearer',
    );
    const failure = (() => {
      try {
        readConfig({ ...ENV, HELIX_CONNECTOR_SOURCE_BEARER: bad, HELIX_CONNECTOR_WORLD_ID: 'overworld' });
      } catch (error) {
        return (error as Error).message;
      }
      return 'no error';
    })();
    expect(failure).toBe('invalid connector configuration: world_id, source_bearer');
  });

  it('refuses a missing bearer, another protocol version, unknown fields and an unreadable file', () => {
    const { HELIX_CONNECTOR_SOURCE_BEARER: _, ...noBearer } = ENV;
    expect(() => readConfig(noBearer)).toThrow('source_bearer');
    expect(() => readConfig({ ...ENV, MINECRAFT_VERSION: '1.20.2' })).toThrow('minecraft.version');
    expect(() => readConfig({ ...ENV, HELIX_CONNECTOR_CONFIG: tempFile('c.json', '{"token":"x"}') })).toThrow(
      'invalid connector configuration: (root)',
    );
    expect(() => readConfig({ ...ENV, HELIX_CONNECTOR_CONFIG: tempFile('c.json', BEARER) })).toThrow(
      /^HELIX_CONNECTOR_CONFIG .* is not a readable JSON object$/,
    );
  });

  it('sends the bearer over plain HTTP only to loopback', () => {
    expect(() => readConfig({ ...ENV, HELIX_CONNECTOR_BASE_URL: 'http://helix.example.com' })).toThrow(
      'base_url must use https unless Helix runs on loopback',
    );
    expect(readConfig({ ...ENV, HELIX_CONNECTOR_BASE_URL: 'http://[::1]:1522' }).base_url).toBe('http://[::1]:1522');
  });
});
