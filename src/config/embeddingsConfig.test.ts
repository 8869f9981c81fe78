import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { embeddingsConfig } from './embeddingsConfig.js';
import { ConfigError } from './env.js';

const KEY = 'sk-embeddings-config-secret';

describe('embeddingsConfig (HELIX_EMBEDDINGS_*)', () => {
  it('is off when HELIX_EMBEDDINGS_MODEL is unset, whatever else is set', () => {
    expect(embeddingsConfig({ HELIX_EMBEDDINGS_BASE_URL: 'http://127.0.0.1:11434/v1' }, false)).toBeUndefined();
    expect(loadConfig({}).embeddings).toBeUndefined();
  });

  it('reads its own URL and key', () => {
    expect(
      embeddingsConfig(
        {
          HELIX_EMBEDDINGS_MODEL: 'nomic-embed-text',
          HELIX_EMBEDDINGS_BASE_URL: 'http://127.0.0.1:11434/v1/',
          HELIX_EMBEDDINGS_API_KEY: KEY,
          HELIX_MODEL_BASE_URL: 'https://api.example.com/v1',
          HELIX_MODEL_API_KEY: 'sk-chat',
        },
        false,
      ),
    ).toEqual({ model: 'nomic-embed-text', baseUrl: 'http://127.0.0.1:11434/v1', apiKey: KEY });
  });

  it('defaults the URL and key to the chat model’s, and needs no key', () => {
    expect(
      embeddingsConfig(
        {
          HELIX_EMBEDDINGS_MODEL: 'm',
          HELIX_MODEL_BASE_URL: 'http://127.0.0.1:8080/v1',
          HELIX_MODEL_API_KEY: 'sk-chat',
        },
        false,
      ),
    ).toEqual({ model: 'm', baseUrl: 'http://127.0.0.1:8080/v1', apiKey: 'sk-chat' });
    expect(
      embeddingsConfig({ HELIX_EMBEDDINGS_MODEL: 'm', HELIX_EMBEDDINGS_BASE_URL: 'http://[::1]:1/v1' }, false),
    ).toEqual({ model: 'm', baseUrl: 'http://[::1]:1/v1' });
  });

  it('reads the key from HELIX_EMBEDDINGS_API_KEY_FILE', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'helix-emb-')), 'key');
    writeFileSync(file, `${KEY}\n`, { mode: 0o600 });
    expect(
      embeddingsConfig(
        {
          HELIX_EMBEDDINGS_MODEL: 'm',
          HELIX_EMBEDDINGS_BASE_URL: 'http://127.0.0.1:1/v1',
          HELIX_EMBEDDINGS_API_KEY_FILE: file,
        },
        true,
      )?.apiKey,
    ).toBe(KEY);
  });

  it.each([
    [{ HELIX_EMBEDDINGS_MODEL: 'm' }, /HELIX_EMBEDDINGS_BASE_URL \(or HELIX_MODEL_BASE_URL\) is required/],
    [
      { HELIX_EMBEDDINGS_MODEL: 'm', HELIX_EMBEDDINGS_BASE_URL: 'ftp://host/v1' },
      /^HELIX_EMBEDDINGS_BASE_URL must be an absolute http/,
    ],
    [
      { HELIX_EMBEDDINGS_MODEL: 'm', HELIX_EMBEDDINGS_BASE_URL: `http://u:${KEY}@127.0.0.1/v1` },
      /^HELIX_EMBEDDINGS_BASE_URL must not carry credentials/,
    ],
    [
      { HELIX_EMBEDDINGS_MODEL: 'm', HELIX_MODEL_BASE_URL: 'http://127.0.0.1/v1?x=1' },
      /^HELIX_MODEL_BASE_URL must not carry a query/,
    ],
    [
      {
        HELIX_EMBEDDINGS_MODEL: 'm',
        HELIX_EMBEDDINGS_BASE_URL: 'http://127.0.0.1/v1',
        HELIX_EMBEDDINGS_API_KEY: KEY,
        HELIX_EMBEDDINGS_API_KEY_FILE: '/x',
      },
      /set HELIX_EMBEDDINGS_API_KEY or HELIX_EMBEDDINGS_API_KEY_FILE, not both/,
    ],
    [
      {
        HELIX_EMBEDDINGS_MODEL: 'm',
        HELIX_EMBEDDINGS_BASE_URL: 'http://127.0.0.1/v1',
        HELIX_EMBEDDINGS_API_KEY_FILE: '/nonexistent/key',
      },
      /HELIX_EMBEDDINGS_API_KEY_FILE names a file that cannot be read/,
    ],
    [
      { HELIX_EMBEDDINGS_MODEL: 'a\tb', HELIX_EMBEDDINGS_BASE_URL: 'http://127.0.0.1/v1' },
      /^HELIX_EMBEDDINGS_MODEL must be/,
    ],
  ])('stops start-up naming the variable (%o)', (env, message) => {
    expect(() => embeddingsConfig(env, false)).toThrow(ConfigError);
    expect(() => embeddingsConfig(env, false)).toThrow(message);
    expect(() => loadConfig(env)).toThrow(message);
    try {
      embeddingsConfig(env, false);
    } catch (error) {
      expect((error as Error).message).not.toContain(KEY);
    }
  });
});
