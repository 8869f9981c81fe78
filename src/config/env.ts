import { readFileSync, statSync } from 'node:fs';
import { checkHttpUrl } from '../net/httpUrl.js';

/** Reading the environment: every helper names the variable in its error and never echoes a secret. */
export type Env = Readonly<Record<string, string | undefined>>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export const value = (env: Env, name: string): string | undefined => {
  const raw = env[name]?.trim();
  return raw === undefined || raw === '' ? undefined : raw;
};

export const integer = (env: Env, name: string, fallback: number, min: number, max: number): number => {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number (got a non-numeric value)`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}`);
  return n;
};

export const list = (env: Env, name: string): string[] =>
  (value(env, name) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** A source endpoint: an absolute http(s) URL; loopback http is fine for self-hosted services. */
export const endpoint = (env: Env, name: string): string | undefined => {
  const raw = value(env, name);
  if (raw === undefined) return undefined;
  const checked = checkHttpUrl(raw);
  if (!checked.ok) throw new ConfigError(`${name} must be an http(s) URL without credentials`);
  return checked.url.toString().replace(/\/$/, '');
};

/**
 * A secret from NAME or NAME_FILE (never both). In production the file must be private to its owner:
 * a key readable by others on the host is already disclosed. Messages name the variable, never the value.
 */
export const secretValue = (env: Env, name: string, production: boolean): string | undefined => {
  const inline = value(env, name);
  const path = value(env, `${name}_FILE`);
  if (inline !== undefined && path !== undefined) throw new ConfigError(`set ${name} or ${name}_FILE, not both`);
  if (path === undefined) return inline;
  let contents: string;
  try {
    if (production && (statSync(path).mode & 0o077) !== 0) {
      throw new ConfigError(`${name}_FILE must not be accessible by group or others in production (chmod 600 it)`);
    }
    contents = readFileSync(path, 'utf8').trim();
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`${name}_FILE names a file that cannot be read`);
  }
  if (contents === '') throw new ConfigError(`${name}_FILE names an empty file`);
  return contents;
};
