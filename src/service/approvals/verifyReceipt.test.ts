import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signApproval } from '../../cli/approvalHost.js';
import { approvalActionSha256 } from '../../domain/runtimeApproval.js';
import { verifyReceipt } from './verifyReceipt.js';

const T = 4_102_444_800_000;
const pair = generateKeyPairSync('ed25519');
const keys = [{ issuer: 'host', keyId: 'k1', publicKey: pair.publicKey }];
const ACTION = { kind: 'mine', at: { x: 0, y: 60, z: 0 } };
const expected = {
  actionSha256: approvalActionSha256(ACTION),
  roomId: `room_${'a'.repeat(24)}`,
  subjectRef: 'player-1',
  runId: null,
  turn: null,
};

const codeOf = async (receipt: string): Promise<string> =>
  verifyReceipt(keys, receipt, expected, T).then(
    () => 'accepted',
    (err: { code?: string }) => err.code ?? 'crash',
  );

describe('verifyReceipt (APR-02, D-11)', () => {
  it('accepts exactly the signed receipt, and refuses every other string with a typed error, never a crash', async () => {
    const receipt = await signApproval(pair.privateKey, {
      ...expected,
      issuer: 'host',
      keyId: 'k1',
      action: ACTION,
      ttlSeconds: 60,
      issuedAt: T / 1000,
    });
    expect(await codeOf(receipt)).toBe('accepted');
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 300 }),
          // One character of the real receipt changed: header, payload or signature.
          fc
            .tuple(fc.nat({ max: receipt.length - 1 }), fc.constantFrom('A', 'b', '-', '_', '.'))
            .map(([at, c]) => receipt.slice(0, at) + c + receipt.slice(at + 1)),
        ),
        async (candidate) => {
          fc.pre(candidate !== receipt);
          expect(await codeOf(candidate)).toBe('runtime_approval_receipt_invalid');
        },
      ),
      { numRuns: 300 },
    );
  });
});
