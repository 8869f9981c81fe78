import { type Kysely, sql } from 'kysely';
import type { RunListQuery } from '../port.js';
import type { HelixDatabase } from '../schema.js';

/** LIKE's own wildcards (and the escape character) in the searched text match only themselves. */
const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A page of runs for a set of owners, newest first, on both dialects. Keyset pagination on
 * (created_at, run_id), both descending, so a page never skips or repeats a run however many are
 * created meanwhile (migration 0016 indexes exactly this order per owner). The objective search
 * lower-cases both sides in the database, so they fold alike (SQLite's lower() folds ASCII only:
 * the match ignores ASCII case, and other text matches as written).
 */
export const selectRunsForOwners = (db: Kysely<HelixDatabase>, query: RunListQuery) => {
  let select = db
    .selectFrom('helix_agent_runs')
    .selectAll()
    .where('owner_hash', 'in', [...query.ownerHashes])
    .orderBy('created_at', 'desc')
    .orderBy('run_id', 'desc')
    .limit(query.limit);
  if (query.lifecycle !== undefined) select = select.where('lifecycle_status', '=', query.lifecycle);
  if (query.text !== undefined)
    select = select.where(sql<boolean>`lower(objective) like lower(${likePattern(query.text)}) escape '\\'`);
  if (query.createdFrom !== undefined) select = select.where('created_at', '>=', query.createdFrom);
  if (query.createdBefore !== undefined) select = select.where('created_at', '<', query.createdBefore);
  const { after } = query;
  if (after !== undefined)
    select = select.where((eb) =>
      eb.or([
        eb('created_at', '<', after.createdAt),
        eb.and([eb('created_at', '=', after.createdAt), eb('run_id', '<', after.runId)]),
      ]),
    );
  return select;
};
