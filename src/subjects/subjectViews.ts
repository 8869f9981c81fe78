import type { ErasureRecord, SubjectCounts, SubjectRecords } from '../store/port.js';

export const SUBJECT_SCHEMA = 'helix.subject.v1';
export const SUBJECT_EXPORT_SCHEMA = 'helix.subject_export.v1';
export const SUBJECT_ERASURE_SCHEMA = 'helix.subject_erasure.v1';

/** `subject.read`: how many rows of each record kind this Helix holds for the subject. */
export interface SubjectSummaryView {
  readonly schema: typeof SUBJECT_SCHEMA;
  readonly account_id: string;
  readonly records: SubjectCounts;
  readonly total: number;
}

/** `subject.export`: every row of the subject, allow-listed columns only (src/store/kysely/subjectRecords.ts). */
export interface SubjectExportView {
  readonly schema: typeof SUBJECT_EXPORT_SCHEMA;
  readonly account_id: string;
  readonly exported_at: string;
  readonly records: SubjectRecords;
}

/** `subject.erase`: the receipt. The account id is the request's; the stored audit holds only its hash. */
export interface SubjectErasureView {
  readonly schema: typeof SUBJECT_ERASURE_SCHEMA;
  readonly account_id: string;
  readonly erasure_id: string;
  readonly erased_at: string;
  readonly records: SubjectCounts;
}

export const erasureView = (accountId: string, erasure: ErasureRecord): SubjectErasureView => ({
  schema: SUBJECT_ERASURE_SCHEMA,
  account_id: accountId,
  erasure_id: erasure.erasureId,
  erased_at: new Date(erasure.erasedAt).toISOString(),
  records: erasure.records,
});
