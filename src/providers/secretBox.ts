import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createSecretKey,
  randomBytes,
  type KeyObject,
} from 'node:crypto';

export type { SealedSecret } from '../domain/sealedSecret.js';
import type { SealedSecret } from '../domain/sealedSecret.js';

export const SECRET_KEY_BYTES = 32;
const IV_BYTES = 12; // NIST SP 800-38D §8.2: 96-bit random IVs
const TAG_BYTES = 16;

export const SECRET_BOX_FAILURES = ['key_mismatch', 'unreadable'] as const;
export type SecretBoxFailure = (typeof SECRET_BOX_FAILURES)[number];

/** Opening failed; the message never contains any part of the secret or the key. */
export class SecretBoxError extends Error {
  override readonly name = 'SecretBoxError';
  constructor(
    readonly failure: SecretBoxFailure,
    message: string,
  ) {
    super(message);
  }
}

/** A short public fingerprint of the key: identifies it across rows without revealing it. */
const keyIdOf = (key: Uint8Array): string =>
  createHash('sha256').update('helix.provider_secret_key.v1\0').update(key).digest('hex').slice(0, 16);

/**
 * Seals provider API keys under the operator key. The associated data binds a ciphertext to its row
 * (and to where the key will be sent), so a ciphertext copied into another row, another owner's
 * row, or a row whose base URL was rewritten fails to open instead of leaking the key elsewhere.
 */
export class SecretBox {
  readonly keyId: string;
  private readonly key: KeyObject;

  constructor(key: Uint8Array) {
    if (key.length !== SECRET_KEY_BYTES)
      throw new RangeError(`the provider secret key must be ${SECRET_KEY_BYTES} bytes`);
    this.key = createSecretKey(Buffer.from(key));
    this.keyId = keyIdOf(key);
  }

  seal(plaintext: string, associatedData: string): SealedSecret {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return {
      ciphertext: ciphertext.toString('base64'),
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      keyId: this.keyId,
    };
  }

  open(sealed: SealedSecret, associatedData: string): string {
    if (sealed.keyId !== this.keyId) {
      throw new SecretBoxError('key_mismatch', 'the secret was encrypted under a different provider secret key');
    }
    const iv = Buffer.from(sealed.iv, 'base64');
    const tag = Buffer.from(sealed.tag, 'base64');
    // GCM accepts short tags unless told otherwise; a truncated tag must not weaken authentication.
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES)
      throw new SecretBoxError('unreadable', 'the sealed secret is malformed');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(associatedData, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64')), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      throw new SecretBoxError(
        'unreadable',
        'the sealed secret failed authentication (altered, or sealed for another row)',
      );
    }
  }

  /** Never show the key, whatever serializes this object. */
  toJSON(): { keyId: string } {
    return { keyId: this.keyId };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `SecretBox(${this.keyId})`;
  }
}

/** Decodes the operator key (base64 of exactly 32 bytes); undefined when it is not that. */
export const decodeSecretKey = (base64: string): Uint8Array | undefined => {
  const text = base64.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) && !/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  const bytes = Buffer.from(text, text.includes('-') || text.includes('_') ? 'base64url' : 'base64');
  return bytes.length === SECRET_KEY_BYTES ? new Uint8Array(bytes) : undefined;
};
