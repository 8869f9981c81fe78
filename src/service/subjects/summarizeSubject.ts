import { HelixError } from '../../domain/errors.js';
import { OWNER_REGISTRATIONS, requireAccountId, scopeOf, subjectKeyOf, totalOf } from './subjectScope.js';
import type { SubjectDeps } from './deps.js';
import { SUBJECT_SCHEMA, type SubjectSummaryView } from './subjectViews.js';

/** `subject.read`: counts per record kind; a subject of whom nothing is held is `subject_not_found`. */
export const summarizeSubject = async (deps: SubjectDeps, rawAccountId: string): Promise<SubjectSummaryView> => {
  const accountId = requireAccountId(rawAccountId);
  const uow = deps.store.read;
  const registered = await uow.subjects.registeredOwners(subjectKeyOf(deps, accountId));
  const records = {
    ...(await uow.subjects.count(await scopeOf(deps, uow, accountId, registered))),
    [OWNER_REGISTRATIONS]: registered.length,
  };
  const total = totalOf(records);
  if (total === 0) throw new HelixError('subject_not_found');
  return { schema: SUBJECT_SCHEMA, account_id: accountId, records, total };
};
