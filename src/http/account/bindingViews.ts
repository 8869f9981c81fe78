import { tenantRefOf } from '../../domain/identityHashes.js';
import type { BindingRecord } from '../../store/port.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** `helix.agent_account_bindings.v1`: never the subject, the tenant in clear, or any credential. */
export const projectBindings = (bindings: readonly BindingRecord[]) => ({
  schema: 'helix.agent_account_bindings.v1',
  // Readiness of the binding only: says nothing of the authorization server, scopes or tokens.
  oauth_ready: bindings.some((b) => b.status === 'active'),
  bindings: bindings.map((b) => ({
    binding_ref: b.bindingRef,
    issuer: b.issuer,
    tenant_ref: tenantRefOf(b.tenantHash),
    provider: b.provider,
    status: b.status,
    created_at: iso(b.createdAt),
    updated_at: iso(b.updatedAt),
    revoked_at: iso(b.revokedAt),
    subject_included: false,
    bearer_included: false,
  })),
});

export const revocationReceipt = (bindingRef: string, outcome: 'revoked' | 'already_revoked') => ({
  schema: 'helix.agent_account_binding_revocation.v1',
  binding_ref: bindingRef,
  binding_status: 'revoked',
  revocation_status: outcome,
  answer_authority: false,
  assistant_answer: false,
  terminal_eligible: false,
  raw_content_included: false,
});
