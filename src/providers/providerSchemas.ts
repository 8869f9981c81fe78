import { z } from 'zod';
import type { ModelProviderRecord } from '../store/port.js';
import { REASONING_EFFORTS, REGISTRABLE_PROVIDER_KINDS } from './providerSettings.js';

/** Provider ids: `mp_` + 22 base64url characters (16 random bytes). */
export const MODEL_PROVIDER_ID = /^mp_[A-Za-z0-9_-]{22}$/;
export const MAX_API_KEY_LENGTH = 4096;

/**
 * `POST /api/v1/model-providers`. Strict like every request schema: an unknown field is a 400.
 * Messages are fixed strings; no rejected value (least of all a key) is ever echoed.
 */
export const RegisterModelProviderSchema = z.strictObject({
  kind: z.enum(REGISTRABLE_PROVIDER_KINDS),
  // Checked against the deployment's base URL policy after parsing (src/net/baseUrlPolicy.ts).
  base_url: z.string().min(1).max(2048),
  model: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,199}$/, 'must be 1-200 characters of A-Z a-z 0-9 . _ : / @ + -'),
  api_key: z
    .string()
    .regex(
      new RegExp(`^[\\x21-\\x7E]{1,${MAX_API_KEY_LENGTH}}$`),
      `must be 1-${MAX_API_KEY_LENGTH} printable ASCII characters without spaces`,
    )
    // Helix's own keys authenticate callers to Helix; sending one to a model provider would leak it.
    .refine((key) => !key.startsWith('hlx_'), 'must not be a Helix API key')
    .optional(),
  reasoning_effort: z.enum(REASONING_EFFORTS).optional(),
  label: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/^[^\p{Cc}]*$/u, 'must not contain control characters')
    .optional(),
});
export type RegisterModelProviderRequest = z.output<typeof RegisterModelProviderSchema>;

export const MODEL_PROVIDER_SCHEMA = 'helix.model_provider.v1';
export const MODEL_PROVIDER_LIST_SCHEMA = 'helix.model_providers.v1';

/** What a caller sees of a registration: whether a key is stored, never the key or any part of it. */
export const ModelProviderViewSchema = z.looseObject({
  schema: z.literal(MODEL_PROVIDER_SCHEMA),
  provider_id: z.string().regex(MODEL_PROVIDER_ID),
  kind: z.string(),
  base_url: z.string(),
  model: z.string(),
  reasoning_effort: z.string().nullable(),
  label: z.string().nullable(),
  has_api_key: z.boolean(),
  created_at: z.string(),
});
export type ModelProviderView = z.output<typeof ModelProviderViewSchema>;

/** Newest first; the first is the one this owner's runs use. */
export const ModelProviderListViewSchema = z.looseObject({
  schema: z.literal(MODEL_PROVIDER_LIST_SCHEMA),
  providers: z.array(ModelProviderViewSchema),
});
export type ModelProviderListView = z.output<typeof ModelProviderListViewSchema>;

export const modelProviderView = (record: ModelProviderRecord): ModelProviderView => ({
  schema: MODEL_PROVIDER_SCHEMA,
  provider_id: record.providerId,
  kind: record.kind,
  base_url: record.baseUrl,
  model: record.model,
  reasoning_effort: record.reasoningEffort,
  label: record.label,
  has_api_key: record.secret !== null,
  created_at: new Date(record.createdAt).toISOString(),
});
