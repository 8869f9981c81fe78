import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { signApproval } from '../../src/cli/approvalHost.js';

/**
 * A test approval host's Ed25519 key pair and the registry entry that trusts it, as an operator
 * would paste it into HELIX_RUNTIME_APPROVAL_TRUSTED_PUBLIC_KEYS_JSON (docs/embodiment.md).
 */
export interface TestApprovalHost {
  readonly issuer: string;
  readonly keyId: string;
  readonly privateKey: KeyObject;
  /** The JSON value of HELIX_RUNTIME_APPROVAL_TRUSTED_PUBLIC_KEYS_JSON. */
  readonly registryJson: string;
}

export const testApprovalHost = (issuer: string, keyId: string): TestApprovalHost => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const publicKeyPem = String(publicKey.export({ type: 'spki', format: 'pem' })).trim();
  return {
    issuer,
    keyId,
    privateKey,
    registryJson: JSON.stringify([{ algorithm: 'ed25519', issuer, keyId, publicKeyPem }]),
  };
};

/** A receipt from `host` for a direct MCP call (null run and turn), valid 5 minutes from `nowMs`. */
export const signDirectApproval = (
  host: TestApprovalHost,
  target: { readonly action: unknown; readonly roomId: string; readonly subjectRef: string },
  nowMs: number,
): Promise<string> =>
  signApproval(host.privateKey, {
    issuer: host.issuer,
    keyId: host.keyId,
    ...target,
    runId: null,
    turn: null,
    ttlSeconds: 300,
    issuedAt: Math.floor(nowMs / 1000),
  });
