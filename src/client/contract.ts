import type { z } from 'zod';
import type { ErrorBodySchema, EventPageSchema, EvidenceBundleSchema, RunViewSchema } from '../api/outputSchemas.js';
import type {
  CancelRunRequestSchema,
  ContinueRunRequestSchema,
  ListEventsQuerySchema,
  StartRunRequestSchema,
} from '../api/schemas.js';

/**
 * The client's view of the contract, derived from the zod schemas the server validates with and
 * publishes (OpenAPI, MCP): a request is typed as the server accepts it (`z.input`: defaults may be
 * omitted), a response as the output schema describes it (`z.infer`). Nothing is restated here.
 */
export type StartRunBody = z.input<typeof StartRunRequestSchema>;
export type ContinueRunBody = z.input<typeof ContinueRunRequestSchema>;
export type CancelRunBody = z.input<typeof CancelRunRequestSchema>;
/** The events page query; the client sends numbers (the server also parses decimal strings). */
export type ListEventsParams = { readonly [K in keyof z.input<typeof ListEventsQuerySchema>]?: number };

export type RunSnapshot = z.infer<typeof RunViewSchema>;
export type RunEventPage = z.infer<typeof EventPageSchema>;
export type RunEvidence = z.infer<typeof EvidenceBundleSchema>;
/** `helix.agent_api.error.v1`: `code` is one of the server's error codes, `adr_code` its ADR-0004 number. */
export type ApiErrorBody = z.infer<typeof ErrorBodySchema>;
export type PendingQuestion = RunSnapshot['pending_questions'][number];
/** What an answer to a pending question may be: any JSON value. */
export type AnswerValue = NonNullable<ContinueRunBody['answers']>[number]['value'];
