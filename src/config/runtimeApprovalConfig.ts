import { createPublicKey } from 'node:crypto';
import { z } from 'zod';
import {
  RUNTIME_APPROVAL_CONFIG_INVALID,
  RUNTIME_APPROVAL_KEYS_VARIABLE,
  RUNTIME_APPROVAL_REGISTRY_LIMITS as LIMITS,
  type TrustedApprovalKey,
} from '../domain/runtimeApproval.js';
import { ConfigError, value, type Env } from './env.js';

const EntrySchema = z.strictObject({
  algorithm: z.literal('ed25519'),
  issuer: z.string().min(1).max(LIMITS.maxIssuerChars),
  keyId: z.string().min(1).max(LIMITS.maxKeyIdChars),
  publicKeyPem: z.string().min(1).max(LIMITS.maxPublicKeyPemChars),
});

const RegistrySchema = z.array(EntrySchema).max(LIMITS.maxKeys);

/** Exactly one SubjectPublicKeyInfo block: a private key (or anything appended to the key) is refused. */
const PUBLIC_KEY_PEM = /^-----BEGIN PUBLIC KEY-----\r?\n[A-Za-z0-9+/=\r\n]+-----END PUBLIC KEY-----$/;

/** APR-05: every refusal names the variable and the bootstrap code, never a key or an issuer. */
const invalid = (reason: string): ConfigError =>
  new ConfigError(`${RUNTIME_APPROVAL_KEYS_VARIABLE} is invalid (${RUNTIME_APPROVAL_CONFIG_INVALID}): ${reason}`);

const parseJson = (raw: string): unknown => {
  try {
    return JSON.parse(raw);
  } catch {
    throw invalid('it is not valid JSON');
  }
};

const firstIssue = (error: z.ZodError): string => {
  const issue = error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  const what =
    issue?.code === 'unrecognized_keys'
      ? 'has a field other than algorithm, issuer, keyId, publicKeyPem'
      : issue?.message;
  return `${path === '' ? 'the value' : `entry ${path}`}: ${what ?? 'is invalid'}`;
};

/** APR-06: the PEM must be an Ed25519 public key; a private key is refused, not turned into a public one. */
const ed25519PublicKey = (pem: string, index: number): TrustedApprovalKey['publicKey'] => {
  if (pem.includes('PRIVATE KEY')) {
    throw invalid(`entry ${index} holds a private key; Helix holds public keys only and never signing material`);
  }
  if (!PUBLIC_KEY_PEM.test(pem.trim())) throw invalid(`entry ${index}: publicKeyPem is not one PEM "PUBLIC KEY" block`);
  let key: TrustedApprovalKey['publicKey'];
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch {
    throw invalid(`entry ${index}: publicKeyPem does not parse as a public key`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw invalid(`entry ${index}: publicKeyPem is not an Ed25519 key`);
  return key;
};

/**
 * HELIX_RUNTIME_APPROVAL_TRUSTED_PUBLIC_KEYS_JSON (APR-02, APR-05..APR-07, §22): a JSON array of
 * `{algorithm: "ed25519", issuer, keyId, publicKeyPem}`, bounded; unset, empty or `[]` installs no
 * verifier, so every approval-gated mutation fails closed (APR-04). Anything malformed, over a
 * bound or ambiguous (one issuer/keyId pair twice) stops start-up rather than being ignored.
 */
export const runtimeApprovalKeys = (env: Env): readonly TrustedApprovalKey[] => {
  const raw = value(env, RUNTIME_APPROVAL_KEYS_VARIABLE);
  if (raw === undefined) return [];
  if (Buffer.byteLength(raw, 'utf8') > LIMITS.maxTotalBytes) {
    throw invalid(`it is longer than ${LIMITS.maxTotalBytes} bytes`);
  }
  const json = parseJson(raw);
  if (!Array.isArray(json)) throw invalid('it must be a JSON array of keys');
  if (json.length > LIMITS.maxKeys) throw invalid(`it lists more than ${LIMITS.maxKeys} keys`);
  const parsed = RegistrySchema.safeParse(json);
  if (!parsed.success) throw invalid(firstIssue(parsed.error));
  const keys: TrustedApprovalKey[] = [];
  for (const [index, entry] of parsed.data.entries()) {
    if (keys.some((k) => k.issuer === entry.issuer && k.keyId === entry.keyId)) {
      throw invalid(`entry ${index} repeats the issuer/keyId pair of an earlier entry`);
    }
    keys.push({ issuer: entry.issuer, keyId: entry.keyId, publicKey: ed25519PublicKey(entry.publicKeyPem, index) });
  }
  return keys;
};
