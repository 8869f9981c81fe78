import { recordKeys, type ScholarlyRecord } from './scholarlyRecord.js';

export interface MergedRecord {
  readonly record: ScholarlyRecord;
  /** The paper's identity across sources (its first key). */
  readonly documentId: string;
  /** Sum of reciprocal ranks over the sources that found it: agreement between sources counts. */
  readonly score: number;
}

interface Slot {
  record: ScholarlyRecord;
  documentId: string;
  score: number;
  order: number;
}

/**
 * Merges per-source result lists (each in the source's own rank order) into one list of distinct
 * papers, best first. Duplicates are recognised by DOI or arXiv id; of two descriptions of one
 * paper the first one with an abstract is kept, because the abstract is what makes it evidence.
 */
export const mergeRecords = (lists: readonly (readonly ScholarlyRecord[])[]): MergedRecord[] => {
  const slots: Slot[] = [];
  const byKey = new Map<string, Slot>();
  const longest = Math.max(0, ...lists.map((list) => list.length));
  // Round-robin, so that ties in score keep every source represented near the top.
  for (let rank = 0; rank < longest; rank += 1) {
    for (const list of lists) {
      const record = list[rank];
      if (record === undefined) continue;
      const keys = recordKeys(record);
      const existing = keys.map((key) => byKey.get(key)).find((slot) => slot !== undefined);
      const slot = existing ?? { record, documentId: keys[0] ?? record.locator, score: 0, order: slots.length };
      if (existing === undefined) slots.push(slot);
      else if (existing.record.abstract === '' && record.abstract !== '') existing.record = record;
      slot.score += 1 / (rank + 1);
      for (const key of keys) if (!byKey.has(key)) byKey.set(key, slot);
    }
  }
  return slots
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ record, documentId, score }) => ({ record, documentId, score }));
};
