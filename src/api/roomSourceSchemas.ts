import { z } from 'zod';
import { isCredentialShaped } from '../domain/credentialShape.js';
import { SOURCE_LIMITS } from '../domain/roomSources.js';

/**
 * RREST-09 / MRT-09 source creation body (§22 [ref]: `{domain_adapter, world_id, source_label,
 * ttl_ms}`), written once for REST, MCP and OpenAPI. Strict (SLR-05) and bounded; a label is one
 * line and never credential-shaped (SLR-08), as room titles.
 */
const oneLine = (max: number, pattern: RegExp, message: string) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(pattern, message)
    .refine((value) => !isCredentialShaped(value), 'must not contain a credential');

export const CreateSourceRequestSchema = z.strictObject({
  domain_adapter: oneLine(
    SOURCE_LIMITS.domainAdapterMaxLength,
    /^[a-z0-9][a-z0-9._-]*$/,
    'must be lowercase letters, digits, dots, dashes or underscores',
  ),
  world_id: oneLine(SOURCE_LIMITS.worldIdMaxLength, /^[A-Za-z0-9][A-Za-z0-9._:/-]*$/, 'must be a world id'),
  source_label: z
    .string()
    .max(SOURCE_LIMITS.labelMaxLength)
    .transform((label) => label.trim())
    .pipe(oneLine(SOURCE_LIMITS.labelMaxLength, /^[^\p{Cc}]+$/u, 'must be one line')),
  ttl_ms: z.number().int().min(SOURCE_LIMITS.ttlMs.min).max(SOURCE_LIMITS.ttlMs.max),
});
export type CreateSourceRequest = z.output<typeof CreateSourceRequestSchema>;

/**
 * SRC-04 [ref] credential claim body: exactly `{claim_handle}`. Any string is accepted here; a
 * handle of the wrong shape is simply not found (claimDelivery), as an unknown one is.
 */
export const ClaimDeliveryRequestSchema = z.strictObject({ claim_handle: z.string().max(200) });
