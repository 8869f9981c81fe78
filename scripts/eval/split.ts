/**
 * The development / held-out split of a question file, recorded per question (`split`).
 * Deterministic, seeded and stratified by kind: a kind's questions without a split are ranked by
 * SHA-256 of `${SPLIT_SEED}:${corpus}:${id}` and dealt alternately, starting with the half that kind
 * has fewer of (development on a tie). A recorded split is never changed, so questions added later
 * do not move the held-out half anyone has already promised not to look at.
 *
 * `npx tsx scripts/eval/split.ts` assigns the missing splits in every corpus's question file.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CORPORA } from './corpus.js';
import { QUESTION_KINDS, type Question, type Split } from './questionSet.js';

export const SPLIT_SEED = 'helix-issue-28';

const rank = (corpus: string, id: string): string =>
  createHash('sha256').update(`${SPLIT_SEED}:${corpus}:${id}`).digest('hex');

/** Every question with a split: the recorded ones as they are, the rest assigned as described above. */
export const assignSplits = <Q extends Pick<Question, 'id' | 'kind'> & { readonly split?: Split | undefined }>(
  corpus: string,
  questions: readonly Q[],
): (Q & { readonly split?: Split | undefined })[] => {
  const assigned = new Map<string, Split>();
  for (const kind of QUESTION_KINDS) {
    const ofKind = questions.filter((q) => q.kind === kind);
    const count = (split: Split): number => ofKind.filter((q) => q.split === split).length;
    let next: Split = count('held_out') < count('development') ? 'held_out' : 'development';
    const open = ofKind
      .filter((q) => q.split === undefined)
      .sort((a, b) => (rank(corpus, a.id) < rank(corpus, b.id) ? -1 : 1));
    for (const q of open) {
      assigned.set(q.id, next);
      next = next === 'development' ? 'held_out' : 'development';
    }
  }
  return questions.map((q) => (q.split === undefined ? { ...q, split: assigned.get(q.id) } : q));
};

const main = (): void => {
  for (const spec of CORPORA) {
    const path = fileURLToPath(new URL(`./${spec.questions}`, import.meta.url));
    const file = JSON.parse(readFileSync(path, 'utf8')) as { questions: Question[] };
    const before = file.questions.filter((q) => q.split === undefined).length;
    file.questions = assignSplits(spec.name, file.questions) as Question[];
    writeFileSync(path, `${JSON.stringify(file, null, 1)}\n`);
    process.stderr.write(`split: ${spec.name}: assigned ${before} of ${file.questions.length}\n`);
  }
};

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
