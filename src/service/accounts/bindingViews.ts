import { z } from 'zod';
import { tenantRefOf } from '../../domain/identityHashes.js';
import { BINDING_STATUSES, type BindingRecord } from '../../store/port.js';

/** A binding's opaque ref: what the browser names a binding by (never its subject or tenant). */
export const BINDING_REF = /^agent-binding:sha256:[0-9a-f]{64}$/;

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** `helix.agent_account_bindings.v1`: never the subject, the tenant in clear, or any credential. */
export const BindingListViewSchema = z.looseObject({
  schema: z.literal('helix.agent_account_bindings.v1'),
  oauth_ready: z.boolean(),
  bindings: z.array(
    z.looseObject({
      binding_ref: z.string(),
      issuer: z.string(),
      tenant_ref: z.string(),
      provider: z.string(),
      status: z.enum(BINDING_STATUSES),
      created_at: z.string().nullable(),
      updated_at: z.string().nullable(),
      revoked_at: z.string().nullable(),
      subject_included: z.literal(false),
      bearer_included: z.literal(false),
    }),
  ),
});

export type BindingListView = z.output<typeof BindingListViewSchema>;

export const projectBindings = (bindings: readonly BindingRecord[]): BindingListView => ({
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

export const BindingRevocationViewSchema = z.looseObject({
  schema: z.literal('helix.agent_account_binding_revocation.v1'),
  binding_ref: z.string(),
  binding_status: z.literal('revoked'),
  revocation_status: z.enum(['revoked', 'already_revoked']),
  answer_authority: z.literal(false),
  assistant_answer: z.literal(false),
  terminal_eligible: z.literal(false),
  raw_content_included: z.literal(false),
});

export type BindingRevocationView = z.output<typeof BindingRevocationViewSchema>;

export const revocationReceipt = (
  bindingRef: string,
  outcome: 'revoked' | 'already_revoked',
): BindingRevocationView => ({
  schema: 'helix.agent_account_binding_revocation.v1',
  binding_ref: bindingRef,
  binding_status: 'revoked',
  revocation_status: outcome,
  answer_authority: false,
  assistant_answer: false,
  terminal_eligible: false,
  raw_content_included: false,
});
