/** Signed claim names that carry the tenant, in order of preference (contract: "signed tenant claim"). */
export const TENANT_CLAIMS = ['tenantId', 'tenant_id', 'customerId', 'customer_id', 'orgId', 'org_id'] as const;

/** Headers that may restate the tenant; they must match the signed value and never establish it. */
export const TENANT_HEADERS = ['x-tenant-id', 'x-customer-id', 'x-org-id'] as const;

export const signedTenantOf = (claims: Readonly<Record<string, unknown>>): string | undefined => {
  for (const name of TENANT_CLAIMS) {
    const value = claims[name];
    if (typeof value === 'string' && value.length > 0 && value.length <= 200) return value;
  }
  return undefined;
};

/** The client a token was issued to: RFC 9068 §2.2 `client_id`, else OIDC Core §2 `azp`. */
export const signedClientOf = (claims: Readonly<Record<string, unknown>>): { clientId?: string } => {
  for (const name of ['client_id', 'azp']) {
    const value = claims[name];
    if (typeof value === 'string' && value.length > 0 && value.length <= 200) return { clientId: value };
  }
  return {};
};
