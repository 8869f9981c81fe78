import { z } from 'zod';
import type { ErasureRecord } from '../../store/port.js';

export const SUBJECT_SCHEMA = 'helix.subject.v1';
export const SUBJECT_EXPORT_SCHEMA = 'helix.subject_export.v1';
export const SUBJECT_ERASURE_SCHEMA = 'helix.subject_erasure.v1';

/** Row counts per record kind (the kinds are listed in src/store/kysely/subjectRecords.ts). */
const SubjectCountsSchema = z.record(z.string(), z.number().int());

/** `subject.read`: how many rows of each record kind this Helix holds for the subject. */
export const SubjectSummaryViewSchema = z.looseObject({
  schema: z.literal(SUBJECT_SCHEMA),
  account_id: z.string(),
  records: SubjectCountsSchema,
  total: z.number().int(),
});
export type SubjectSummaryView = z.output<typeof SubjectSummaryViewSchema>;

/** `subject.export`: every row of the subject, allow-listed columns only (src/store/kysely/subjectRecords.ts). */
export const SubjectExportViewSchema = z.looseObject({
  schema: z.literal(SUBJECT_EXPORT_SCHEMA),
  account_id: z.string(),
  exported_at: z.string(),
  records: z.record(z.string(), z.array(z.record(z.string(), z.unknown())).readonly()),
});
export type SubjectExportView = z.output<typeof SubjectExportViewSchema>;

/** `subject.erase`: the receipt. The account id is the request's; the stored audit holds only its hash. */
export const SubjectErasureViewSchema = z.looseObject({
  schema: z.literal(SUBJECT_ERASURE_SCHEMA),
  account_id: z.string(),
  erasure_id: z.string(),
  erased_at: z.string(),
  records: SubjectCountsSchema,
});
export type SubjectErasureView = z.output<typeof SubjectErasureViewSchema>;

export const erasureView = (accountId: string, erasure: ErasureRecord): SubjectErasureView => ({
  schema: SUBJECT_ERASURE_SCHEMA,
  account_id: accountId,
  erasure_id: erasure.erasureId,
  erased_at: new Date(erasure.erasedAt).toISOString(),
  records: erasure.records,
});
