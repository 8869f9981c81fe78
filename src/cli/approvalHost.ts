import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CompactSign } from 'jose';
import {
  approvalActionSha256,
  RUNTIME_APPROVAL_RECEIPT as RECEIPT,
  type ApprovalBinding,
  type ApprovalClaims,
} from '../domain/runtimeApproval.js';
import { CliError } from './options.js';

/**
 * The reference runtime approval host (D-11, APR-10): it holds the Ed25519 private key, outside the
 * server process, and signs receipts an operator (or a test) explicitly asks for. Nothing here is
 * imported by the server: Helix itself only ever verifies (APR-06).
 */

/** One entry of HELIX_RUNTIME_APPROVAL_TRUSTED_PUBLIC_KEYS_JSON (APR-07). */
export interface RegistryEntry {
  readonly algorithm: 'ed25519';
  readonly issuer: string;
  readonly keyId: string;
  readonly publicKeyPem: string;
}

/** A key id derived from the public key: the first 16 hex digits of the SHA-256 of its SPKI form. */
const fingerprintOf = (publicKey: KeyObject): string =>
  createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex')
    .slice(0, 16);

/**
 * Writes a new Ed25519 private key to `<dir>/<keyId>.private.pem` (mode 0600; an existing file is
 * never overwritten) and answers the registry entry of its public half.
 */
export const generateApprovalKey = (
  dir: string,
  issuer: string,
  keyId: string | undefined,
): { entry: RegistryEntry; file: string } => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const id = keyId ?? `ed25519-${fingerprintOf(publicKey)}`;
  if (!/^[A-Za-z0-9._-]{1,200}$/.test(id)) throw new CliError('--key-id must be 1-200 characters of [A-Za-z0-9._-]', 2);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${id}.private.pem`);
  try {
    writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST')
      throw new CliError(`${file} exists; refusing to overwrite it`);
    throw new CliError(`cannot write ${file}: ${(err as Error).message}`);
  }
  chmodSync(file, 0o600);
  const publicKeyPem = String(publicKey.export({ type: 'spki', format: 'pem' })).trim();
  return { entry: { algorithm: 'ed25519', issuer, keyId: id, publicKeyPem }, file };
};

/** The private key file: private to its owner (a key others can read is already disclosed), Ed25519. */
export const readApprovalKey = (file: string): KeyObject => {
  let pem: string;
  try {
    if ((statSync(file).mode & 0o077) !== 0) {
      throw new CliError(`${file} must not be accessible by group or others (chmod 600 it)`, 2);
    }
    pem = readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`cannot read the key file ${file}`, 2);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new CliError(`${file} is not a PEM private key`, 2);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new CliError(`${file} is not an Ed25519 key`, 2);
  return key;
};

export interface SignRequest extends Omit<ApprovalBinding, 'actionSha256'> {
  readonly issuer: string;
  readonly keyId: string;
  readonly action: unknown;
  readonly ttlSeconds: number;
  /** Seconds since the epoch. */
  readonly issuedAt: number;
}

/** The claims of one receipt: a fresh 128-bit nonce, the exact action's hash, a bounded lifetime. */
export const approvalClaims = (request: SignRequest): ApprovalClaims => ({
  iss: request.issuer,
  aud: RECEIPT.audience,
  jti: randomBytes(16).toString('base64url'),
  iat: request.issuedAt,
  exp: request.issuedAt + request.ttlSeconds,
  action_sha256: approvalActionSha256(request.action),
  room_id: request.roomId,
  subject_ref: request.subjectRef,
  run_id: request.runId,
  turn: request.turn,
});

/** A compact JWS (EdDSA) over the claims, naming the key in its protected header. */
export const signApproval = (privateKey: KeyObject, request: SignRequest): Promise<string> =>
  new CompactSign(new TextEncoder().encode(JSON.stringify(approvalClaims(request))))
    .setProtectedHeader({ alg: 'EdDSA', typ: RECEIPT.type, kid: request.keyId })
    .sign(privateKey);
