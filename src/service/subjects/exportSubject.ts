import { HelixError } from '../../domain/errors.js';
import { requireAccountId, scopeOf, subjectKeyOf } from './subjectScope.js';
import type { SubjectDeps } from './deps.js';
import { SUBJECT_EXPORT_SCHEMA, type SubjectExportView } from './subjectViews.js';

/** `subject.export`: every row of the subject as one document; `subject_not_found` when there is none. */
export const exportSubject = async (deps: SubjectDeps, rawAccountId: string): Promise<SubjectExportView> => {
  const accountId = requireAccountId(rawAccountId);
  const exportedAt = deps.now();
  const uow = deps.store.read;
  const registered = await uow.subjects.registeredOwners(subjectKeyOf(deps, accountId));
  const records = await uow.subjects.exportRecords(await scopeOf(deps, uow, accountId, registered));
  if (registered.length === 0 && Object.values(records).every((rows) => rows.length === 0))
    throw new HelixError('subject_not_found');
  return {
    schema: SUBJECT_EXPORT_SCHEMA,
    account_id: accountId,
    exported_at: new Date(exportedAt).toISOString(),
    records,
  };
};
