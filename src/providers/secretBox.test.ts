import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SecretBox, SecretBoxError, decodeSecretKey, type SealedSecret } from './secretBox.js';

const SECRET = 'sk-test-0123456789abcdefghijklmnop';
const AAD = 'helix.model_provider.v1\0mp_one\0owner-a';

const flipFirstByte = (base64: string): string => {
  const bytes = Buffer.from(base64, 'base64');
  bytes[0] = (bytes[0] ?? 0) ^ 0x01;
  return bytes.toString('base64');
};

const failureOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SecretBoxError);
    expect((err as Error).message).not.toContain(SECRET);
    return (err as SecretBoxError).failure;
  }
  throw new Error('expected open to fail');
};

describe('SecretBox (AES-256-GCM)', () => {
  const box = new SecretBox(randomBytes(32));

  it('round-trips, with a fresh 12-byte IV and a 16-byte tag each time, and no plaintext in the sealed parts', () => {
    const a = box.seal(SECRET, AAD);
    const b = box.seal(SECRET, AAD);
    expect(box.open(a, AAD)).toBe(SECRET);
    expect(Buffer.from(a.iv, 'base64')).toHaveLength(12);
    expect(Buffer.from(a.tag, 'base64')).toHaveLength(16);
    expect(a.iv).not.toBe(b.iv);
    expect(a.ciphertext).not.toBe(b.ciphertext);
    expect(JSON.stringify(a)).not.toContain(SECRET);
    expect(Buffer.from(a.ciphertext, 'base64').toString('latin1')).not.toContain(SECRET);
  });

  it.each<[string, (s: SealedSecret) => SealedSecret]>([
    ['ciphertext', (s) => ({ ...s, ciphertext: flipFirstByte(s.ciphertext) })],
    ['iv', (s) => ({ ...s, iv: flipFirstByte(s.iv) })],
    ['tag', (s) => ({ ...s, tag: flipFirstByte(s.tag) })],
    ['truncated tag', (s) => ({ ...s, tag: Buffer.from(s.tag, 'base64').subarray(0, 12).toString('base64') })],
  ])('refuses a tampered %s', (_part, tamper) => {
    expect(failureOf(() => box.open(tamper(box.seal(SECRET, AAD)), AAD))).toBe('unreadable');
  });

  it('refuses associated data of another row or owner (a swapped ciphertext)', () => {
    const sealed = box.seal(SECRET, AAD);
    expect(failureOf(() => box.open(sealed, 'helix.model_provider.v1\0mp_two\0owner-a'))).toBe('unreadable');
    expect(failureOf(() => box.open(sealed, 'helix.model_provider.v1\0mp_one\0owner-b'))).toBe('unreadable');
  });

  it('reports a different key as a key mismatch, never as a garbage decrypt', () => {
    const sealed = box.seal(SECRET, AAD);
    const other = new SecretBox(randomBytes(32));
    expect(other.keyId).not.toBe(box.keyId);
    expect(failureOf(() => other.open(sealed, AAD))).toBe('key_mismatch');
    // Even with a forged key id, the other key cannot authenticate the ciphertext.
    expect(failureOf(() => other.open({ ...sealed, keyId: other.keyId }, AAD))).toBe('unreadable');
  });

  it('never shows the key when serialized or inspected', () => {
    const key = randomBytes(32);
    const shown = `${JSON.stringify(new SecretBox(key))} ${inspect(new SecretBox(key), { showHidden: true, depth: 10 })}`;
    expect(shown).not.toContain(key.toString('base64'));
    expect(shown).not.toContain(key.toString('hex'));
  });

  it('accepts only a key of exactly 32 bytes', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow(RangeError);
    const key = randomBytes(32);
    expect(Buffer.from(decodeSecretKey(key.toString('base64'))!)).toEqual(key);
    expect(Buffer.from(decodeSecretKey(key.toString('base64url'))!)).toEqual(key);
    expect(decodeSecretKey(randomBytes(31).toString('base64'))).toBeUndefined();
    expect(decodeSecretKey(randomBytes(33).toString('base64'))).toBeUndefined();
    expect(decodeSecretKey('not base64 at all!')).toBeUndefined();
    expect(decodeSecretKey(key.toString('hex'))).toBeUndefined();
  });
});
