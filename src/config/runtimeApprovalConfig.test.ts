import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { runtimeApprovalKeys } from './runtimeApprovalConfig.js';

const VARIABLE = 'HELIX_RUNTIME_APPROVAL_TRUSTED_PUBLIC_KEYS_JSON';
const CODE = 'runtime_approval_trusted_key_config_invalid';

const ed25519 = () => generateKeyPairSync('ed25519');
const publicPem = (pair = ed25519()): string => String(pair.publicKey.export({ type: 'spki', format: 'pem' }));

const entry = (n: number, extra: Record<string, unknown> = {}) => ({
  algorithm: 'ed25519',
  issuer: 'workstation.local',
  keyId: `key-${n}`,
  publicKeyPem: publicPem(),
  ...extra,
});

const parse = (registry: unknown) => runtimeApprovalKeys({ [VARIABLE]: JSON.stringify(registry) });

/** A refusal names the variable and the bootstrap code (APR-05), and the reason. */
const refusal = (reason: RegExp) => new RegExp(`${VARIABLE} is invalid \\(${CODE}\\): .*${reason.source}`);

describe('HELIX_RUNTIME_APPROVAL_TRUSTED_PUBLIC_KEYS_JSON (APR-02, APR-04..APR-07)', () => {
  it('APR-04: unset, empty or [] installs no verifier (fail closed)', () => {
    expect(loadConfig({}).runtimeApprovalKeys).toEqual([]);
    expect(runtimeApprovalKeys({ [VARIABLE]: '  ' })).toEqual([]);
    expect(parse([])).toEqual([]);
  });

  it('APR-02: installs each exact issuer/keyId pair with its Ed25519 public key', () => {
    const keys = loadConfig({
      [VARIABLE]: JSON.stringify([entry(1), entry(2, { issuer: 'other.host' })]),
    }).runtimeApprovalKeys;
    expect(keys.map((k) => [k.issuer, k.keyId, k.publicKey.type, k.publicKey.asymmetricKeyType])).toEqual([
      ['workstation.local', 'key-1', 'public', 'ed25519'],
      ['other.host', 'key-2', 'public', 'ed25519'],
    ]);
  });

  it('APR-07: the same key id under two issuers is two keys; the same pair twice is ambiguous', () => {
    expect(parse([entry(1), entry(1, { issuer: 'other.host' })])).toHaveLength(2);
    expect(() => parse([entry(1), entry(2), entry(1)])).toThrow(refusal(/entry 2 repeats the issuer\/keyId pair/));
  });

  it('APR-05: malformed JSON or a value that is not an array stops start-up', () => {
    expect(() => loadConfig({ [VARIABLE]: '[{"algorithm":' })).toThrow(refusal(/not valid JSON/));
    expect(() => parse(entry(1))).toThrow(refusal(/must be a JSON array/));
    expect(() => parse('ed25519')).toThrow(refusal(/must be a JSON array/));
  });

  it('APR-07: more than 32 keys, or more than 64 KiB, is refused', () => {
    const pem = publicPem();
    const many = Array.from({ length: 33 }, (_, n) => entry(n, { publicKeyPem: pem }));
    expect(parse(many.slice(0, 32))).toHaveLength(32);
    expect(() => parse(many)).toThrow(refusal(/more than 32 keys/));
    const long = Array.from({ length: 30 }, (_, n) => entry(n, { issuer: 'i'.repeat(2_048), publicKeyPem: pem }));
    expect(JSON.stringify(long).length).toBeGreaterThan(64 * 1024);
    expect(() => parse(long)).toThrow(refusal(/longer than 65536 bytes/));
  });

  it('APR-07: each field is bounded, required and exact; extra fields are refused', () => {
    expect(parse([entry(1, { issuer: 'i'.repeat(2_048), keyId: 'k'.repeat(256) })])).toHaveLength(1);
    expect(() => parse([entry(1, { issuer: 'i'.repeat(2_049) })])).toThrow(refusal(/entry 0.issuer/));
    expect(() => parse([entry(1, { keyId: 'k'.repeat(257) })])).toThrow(refusal(/entry 0.keyId/));
    expect(() => parse([entry(1, { keyId: '' })])).toThrow(refusal(/entry 0.keyId/));
    expect(() => parse([entry(1, { publicKeyPem: 'x'.repeat(16 * 1024 + 1) })])).toThrow(refusal(/publicKeyPem/));
    const { issuer: _, ...withoutIssuer } = entry(1);
    expect(() => parse([withoutIssuer])).toThrow(refusal(/entry 0.issuer/));
    expect(() => parse([entry(1, { expiresAt: 1 })])).toThrow(refusal(/a field other than algorithm/));
    expect(() => parse([entry(1, { algorithm: 'ES256' })])).toThrow(refusal(/entry 0.algorithm/));
    expect(() => parse([entry(1, { algorithm: 'Ed25519' })])).toThrow(refusal(/entry 0.algorithm/));
  });

  it('APR-07: a PEM that is not an Ed25519 SubjectPublicKeyInfo is refused (RSA, EC, garbage)', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    expect(() => parse([entry(1, { publicKeyPem: publicPem(rsa) })])).toThrow(refusal(/not an Ed25519 key/));
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(() => parse([entry(1, { publicKeyPem: publicPem(ec) })])).toThrow(refusal(/not an Ed25519 key/));
    const corrupt = '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n';
    expect(() => parse([entry(1, { publicKeyPem: corrupt })])).toThrow(refusal(/does not parse as a public key/));
    expect(() => parse([entry(1, { publicKeyPem: 'not a key' })])).toThrow(refusal(/not one PEM "PUBLIC KEY" block/));
  });

  it('APR-06: a private key is refused, even though its public half could be derived from it', () => {
    const pair = ed25519();
    const privatePem = String(pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const message = refusal(/entry 0 holds a private key/);
    expect(() => parse([entry(1, { publicKeyPem: privatePem })])).toThrow(message);
    // A public key with the private key appended is refused too.
    expect(() => parse([entry(1, { publicKeyPem: publicPem(pair) + privatePem })])).toThrow(message);
  });

  it('APR-05: a refusal never echoes the key material or the issuer', () => {
    const pem = publicPem(generateKeyPairSync('rsa', { modulusLength: 2048 }));
    let message = '';
    try {
      parse([entry(1, { issuer: 'secret-issuer-name', publicKeyPem: pem })]);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(refusal(/not an Ed25519 key/));
    expect(message).not.toContain('secret-issuer-name');
    expect(message).not.toContain(pem.split('\n')[1]);
  });
});
