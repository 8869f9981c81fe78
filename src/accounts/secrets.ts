import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { sha256Hex } from '../domain/hashing.js';

/** A random, URL-safe secret (256 bits) and the hash it is stored as. */
export const newSecret = (): { value: string; hash: string } => {
  const value = randomBytes(32).toString('base64url');
  return { value, hash: sha256Hex(value) };
};

export const secretHash = (value: string): string => sha256Hex(value);

// scrypt is memory-hard: N=2^15, r=8 needs 32 MiB per guess, which is what makes offline guessing slow.
const SCRYPT = { N: 32_768, r: 8, p: 1, keyLength: 32, maxmem: 64 * 1024 * 1024 } as const;

const derive = (password: string, salt: Buffer, N: number, r: number, p: number, keyLength: number): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, keyLength, { N, r, p, maxmem: SCRYPT.maxmem }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );

/** `scrypt$N$r$p$salt$key`, salt and key base64url. */
export const hashPassword = async (password: string): Promise<string> => {
  const salt = randomBytes(16);
  const key = await derive(password, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p, SCRYPT.keyLength);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
};

export const verifyPassword = async (password: string, stored: string): Promise<boolean> => {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || salt === undefined || key === undefined) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(
    password,
    Buffer.from(salt, 'base64url'),
    Number(n),
    Number(r),
    Number(p),
    expected.length,
  );
  return timingSafeEqual(actual, expected);
};

export const PASSWORD_RULES = { minLength: 12, maxLength: 1024 } as const;
