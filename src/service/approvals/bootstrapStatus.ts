import type { ReplayProtection, TrustedApprovalKey } from '../../domain/runtimeApproval.js';

export const APPROVAL_BOOTSTRAP_STATUS_SCHEMA = 'helix.runtime_tool_confirmation.server_bootstrap_status.v1';

/** What start-up installed for runtime approvals (APR-03, D-06): public identities only, never a key. */
export interface ApprovalBootstrapStatus {
  readonly schema: typeof APPROVAL_BOOTSTRAP_STATUS_SCHEMA;
  readonly replay_protection: ReplayProtection;
  readonly trusted_key_count: number;
  readonly trusted_keys: readonly { readonly issuer: string; readonly key_id: string }[];
  /** APR-06: the server never holds private signing material, so it can never mint an approval. */
  readonly signer: 'none';
}

/**
 * D-06: every store Helix supports keeps the replay ledger durably, so a configured verifier is
 * always `durable_store`; without keys nothing can be approved (`fail_closed_unconfigured`).
 */
export const approvalBootstrapStatus = (keys: readonly TrustedApprovalKey[]): ApprovalBootstrapStatus => ({
  schema: APPROVAL_BOOTSTRAP_STATUS_SCHEMA,
  replay_protection: keys.length === 0 ? 'fail_closed_unconfigured' : 'durable_store',
  trusted_key_count: keys.length,
  trusted_keys: keys.map((k) => ({ issuer: k.issuer, key_id: k.keyId })),
  signer: 'none',
});
