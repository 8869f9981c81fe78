/** The evaluation's figures per corpus and split, the issue's goals, and docs/quality.md. */
import { isAnswerable, SPLITS, type Split } from './questionSet.js';
import type { FileRecall } from './recall.js';
import { continueAfterDecline, summarize, VERDICTS, type KindSummary, type Scored } from './score.js';

export interface TurnMillis {
  readonly p50: number;
  readonly p99: number;
  readonly turns: number;
}

export interface CorpusFigures {
  readonly name: string;
  readonly version: string;
  readonly generator: string;
  readonly license: string;
  readonly files: number;
  readonly bytes: number;
  readonly ingest: { readonly seconds: number; readonly passages: number };
  readonly scored: readonly Scored[];
  /** File recall@5 per half, Helix's search beside plain BM25. */
  readonly recall: Readonly<Record<Split, FileRecall>>;
  readonly turnMillis: TurnMillis;
  /** The same questions' turns again on the grown library (the latency goal's 15k passages); none when no scale files. */
  readonly atScale?: { readonly passages: number; readonly turnMillis: TurnMillis };
  /** Wall time of the corpus's evaluation (ingest, recall, questions), seconds. */
  readonly seconds: number;
}

export interface EvalFigures {
  readonly date: string;
  readonly machine: string;
  /** Wall time of the whole evaluation, seconds. */
  readonly seconds: number;
  /** 1-minute load average when the evaluation started (other work on the machine slows ingest and turns). */
  readonly loadAverage: number;
  readonly corpora: readonly CorpusFigures[];
}

export interface Goal {
  readonly name: string;
  readonly target: string;
  /** This run's figure per corpus, in the order of `corpora`. */
  readonly figures: readonly string[];
  readonly met: boolean;
}

const percent = (share: number): string => `${(share * 100).toFixed(0)} %`;

export const megabytesPerSecond = (c: CorpusFigures): number => c.bytes / 1_000_000 / Math.max(c.ingest.seconds, 1e-9);

const ofSplit = (scored: readonly Scored[], split: Split | undefined): Scored[] =>
  split === undefined ? [...scored] : scored.filter((s) => s.question.split === split);

export interface HalfFigures {
  readonly questions: number;
  readonly answerable: number;
  readonly correct: number;
  readonly unanswerable: number;
  readonly declinedUnanswerable: number;
  readonly authorizedWrong: number;
}

export const halfFigures = (scored: readonly Scored[]): HalfFigures => {
  const answerable = scored.filter((s) => isAnswerable(s.question.kind));
  const unanswerable = scored.filter((s) => s.question.kind === 'unanswerable');
  return {
    questions: scored.length,
    answerable: answerable.length,
    correct: answerable.filter((s) => s.verdict === 'correct').length,
    unanswerable: unanswerable.length,
    declinedUnanswerable: unanswerable.filter((s) => s.verdict === 'declined_correctly').length,
    authorizedWrong: scored.filter((s) => s.verdict === 'authorized_but_wrong').length,
  };
};

const share = (n: number, of: number): number => (of === 0 ? Number.NaN : n / of);
const shown = (n: number, of: number): string => (of === 0 ? '–' : `${n}/${of} (${percent(n / of)})`);

/** The issue's goals on the held-out halves, one figure per corpus; met when every corpus meets it. */
export const goalsOf = (figures: EvalFigures): Goal[] => {
  const heldOut = figures.corpora.map((c) => ofSplit(c.scored, 'held_out'));
  const kindShare = (kind: string) =>
    heldOut.map((scored) => {
      const ofKind = scored.filter((s) => s.question.kind === kind);
      return share(ofKind.filter((s) => s.verdict === 'correct').length, ofKind.length);
    });
  const goal = (name: string, target: string, values: number[], ok: (v: number) => boolean, show = percent): Goal => ({
    name,
    target,
    figures: values.map((v) => (Number.isNaN(v) ? '–' : show(v))),
    // A goal with no held-out figure at all (a development-only run) is not met: nothing shows it is.
    met: values.some((v) => !Number.isNaN(v)) && values.every((v) => Number.isNaN(v) || ok(v)),
  });
  const halves = heldOut.map(halfFigures);
  return [
    goal(
      'authorized but wrong, of all questions',
      '≤ 3 %',
      halves.map((h) => share(h.authorizedWrong, h.questions)),
      (v) => v <= 0.03,
      (v) => `${(v * 100).toFixed(1)} %`,
    ),
    goal(
      'unanswerable declined',
      '≥ 95 %',
      halves.map((h) => share(h.declinedUnanswerable, h.unanswerable)),
      (v) => v >= 0.95,
    ),
    goal(
      'answerable correct and cited',
      '≥ 70 %',
      halves.map((h) => share(h.correct, h.answerable)),
      (v) => v >= 0.7,
    ),
    goal('list / procedure correct', '≥ 60 %', kindShare('list'), (v) => v >= 0.6),
    goal('paraphrase correct (offline)', '≥ 50 %', kindShare('paraphrase'), (v) => v >= 0.5),
    goal(
      'turn p50 (all turns; Git: at scale)',
      '≤ 100 ms',
      figures.corpora.map((c) => (c.atScale ?? c).turnMillis.p50),
      (v) => v <= 100,
      (v) => `${v.toFixed(0)} ms`,
    ),
    goal(
      'ingest',
      '≥ 1 MB/s',
      figures.corpora.map(megabytesPerSecond),
      (v) => v >= 1,
      (v) => `${v.toFixed(2)} MB/s`,
    ),
  ];
};

const row = (cells: readonly (string | number)[]): string => `| ${cells.join(' | ')} |`;
const rule = (first: number, numeric: number): string =>
  row([...Array.from({ length: first }, () => '---'), ...Array.from({ length: numeric }, () => '---:')]);

const splitLabel = (split: Split | undefined): string =>
  split === undefined ? 'all' : split === 'held_out' ? 'held-out' : 'development';

const halvesTable = (figures: EvalFigures): string[] => [
  row([
    'corpus',
    'half',
    'questions',
    'answerable correct and cited',
    'unanswerable declined',
    'authorized but wrong (of all)',
    'recall@5 Helix',
    'recall@5 BM25',
  ]),
  rule(2, 6),
  ...figures.corpora.flatMap((c) =>
    SPLITS.map((split) => {
      const h = halfFigures(ofSplit(c.scored, split));
      const recall = c.recall[split];
      return row([
        c.name,
        splitLabel(split),
        h.questions,
        shown(h.correct, h.answerable),
        shown(h.declinedUnanswerable, h.unanswerable),
        shown(h.authorizedWrong, h.questions),
        recall.questions === 0 ? '–' : recall.helix.toFixed(2),
        recall.questions === 0 ? '–' : recall.baseline.toFixed(2),
      ]);
    }),
  ),
];

const kindTable = (scored: readonly Scored[]): string[] => [
  row(['kind', 'half', 'questions', ...VERDICTS.map((v) => v.replaceAll('_', ' ')), 'right']),
  rule(2, VERDICTS.length + 2),
  ...summarize(scored)
    .filter((s) => s.questions > 0)
    .flatMap((all: KindSummary) =>
      SPLITS.map((split) => ({ split, s: summarize(ofSplit(scored, split)).find((k) => k.kind === all.kind) }))
        .filter((x) => x.s !== undefined && x.s.questions > 0)
        .map(({ split, s }) =>
          s === undefined
            ? ''
            : row([
                s.kind.replaceAll('_', ' '),
                splitLabel(split),
                s.questions,
                ...VERDICTS.map((v) => s.counts[v]),
                percent(s.rightShare),
              ]),
        ),
    ),
];

const excerpt = (text: string | null): string =>
  text === null ? '' : text.replace(/\s+/g, ' ').replaceAll('|', '\\|').slice(0, 90);

const corpusSection = (c: CorpusFigures): string[] => {
  const declines = c.scored.filter((s) => !s.outcome.authorized);
  const meanSteps =
    declines.length === 0 ? 0 : declines.reduce((sum, s) => sum + s.outcome.stepsUsed, 0) / declines.length;
  return [
    `## ${c.name}`,
    '',
    `${c.version}; ${c.generator}; license ${c.license}. ${c.files} files, ${(c.bytes / 1_000_000).toFixed(1)} MB; ${c.ingest.passages} passages ingested in ${c.ingest.seconds.toFixed(1)} s (${megabytesPerSecond(c).toFixed(2)} MB/s). Turns: ${c.turnMillis.turns}, p50 ${c.turnMillis.p50.toFixed(1)} ms, p99 ${c.turnMillis.p99.toFixed(1)} ms.${c.atScale === undefined ? '' : ` At scale (${c.atScale.passages} passages): p50 ${c.atScale.turnMillis.p50.toFixed(1)} ms, p99 ${c.atScale.turnMillis.p99.toFixed(1)} ms.`} Loop guidance: ${continueAfterDecline(c.scored)} of ${declines.length} declined runs still recommended \`continue\`; declined runs used ${meanSteps.toFixed(1)} steps on average. Evaluated in ${c.seconds.toFixed(0)} s.`,
    '',
    ...kindTable(c.scored),
    '',
    `<details><summary>Every development question of ${c.name} (the held-out half is reported above only in aggregate, so that nobody tunes on it)</summary>`,
    '',
    row(['id', 'kind', 'verdict', 'steps', 'answer (start)']),
    row(['---', '---', '---', '---:', '---']),
    ...ofSplit(c.scored, 'development').map((s) =>
      row([
        s.question.id,
        s.question.kind.replaceAll('_', ' '),
        s.verdict.replaceAll('_', ' '),
        s.outcome.stepsUsed,
        excerpt(s.outcome.answer),
      ]),
    ),
    '',
    '</details>',
    '',
  ];
};

export const renderQualityDoc = (figures: EvalFigures): string => {
  const goals = goalsOf(figures);
  return [
    '# Answer quality',
    '',
    `Written by \`npm run eval\` on ${figures.date}; ${figures.machine}, load average ${figures.loadAverage.toFixed(1)} at the start; the whole evaluation took ${figures.seconds.toFixed(0)} s. Corpora: ${figures.corpora.map((c) => `${c.name} (${c.version})`).join(', ')} — freely licensed Debian documentation packages of different generators, listed with their licenses in \`scripts/eval/corpus.ts\`. Questions: \`scripts/eval/questions.json\` (Git) and \`scripts/eval/questions/<corpus>.json\`, written from the documents and checked against them before scoring. Each question is one run on a fresh embedded SQLite store per corpus, driven by the loop \`helix ask\` uses (start, then continue while the run recommends it and progress is made).`,
    '',
    'Every question file is split into a **development** and a **held-out** half (field `split`; `scripts/eval/split.ts`: seeded, stratified by kind, recorded before any code was changed for it). Tune on the development half only; the goals are judged on the held-out half.',
    '',
    'An answer is **correct** when the run ends `completed` with terminal authority `authorized` and its text states everything expected — every pattern of a single fact or quantity, every part of a two-part question, every item of a list (in order for a procedure) — **partial** when it states some, **authorized but wrong** when it states none (or answers a question the documents cannot answer, or takes a side in a contradiction). A run that ends without an authorized answer is **declined**: right for unanswerable questions, and for contradictions when the conflict is reported. Recall@5 is the share of questions with a document that states the answer among the documents of the top five passages, for the search a turn runs beside plain BM25 over the same passages.',
    '',
    '## Goals (held-out halves)',
    '',
    row(['goal', ...figures.corpora.map((c) => c.name), 'target', 'met']),
    row(['---', ...figures.corpora.map(() => '---:'), '---:', '---']),
    ...goals.map((g) => row([g.name, ...g.figures, g.target, g.met ? 'yes' : 'no'])),
    '',
    '## Both halves, per corpus',
    '',
    ...halvesTable(figures),
    '',
    ...figures.corpora.flatMap(corpusSection),
  ].join('\n');
};
