/**
 * `npm run eval [-- --corpus <names>] [--split <half>] [--kinds <kinds>] [--ids <ids>] [--no-write]`:
 * answer quality on real manuals nobody here wrote, one corpus after another (corpus.ts CORPORA).
 * Per corpus: ingests it into a fresh embedded SQLite store, checks its question set against the
 * documents, asks every question through Helix's REST API, scores the outcomes (score.ts),
 * measures file recall@5 per half beside a plain BM25 baseline; then writes docs/quality.md (a
 * full run only). Progress goes to stderr, prefixed with the corpus; the summary and one JSON line
 * per corpus to stdout. HELIX_EVAL_CORPUS names the folder of the one corpus selected.
 * Exit 0 whatever the figures; 1 if the evaluation breaks or a question set does not hold; 2 on bad usage.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createApiKey } from '../../src/auth/apiKeys.js';
import { HelixRestClient } from '../../src/client/restClient.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startHelix } from '../../src/server.js';
import { ingestPaths } from '../../src/sources/library/ingest.js';
import { openStore } from '../../src/store/openStore.js';
import type { Store } from '../../src/store/port.js';
import { percentile } from '../../bench/percentile.js';
import { askQuestion } from './askQuestions.js';
import {
  CORPORA,
  CorpusUnavailableError,
  corpusTexts,
  labelOf,
  locateCorpus,
  type Corpus,
  type CorpusSpec,
} from './corpus.js';
import {
  checkQuestions,
  loadQuestions,
  QUESTION_KINDS,
  SPLITS,
  type Question,
  type QuestionKind,
  type Split,
} from './questionSet.js';
import { baselineOver, measureFileRecall } from './recall.js';
import { goalsOf, halfFigures, renderQualityDoc, type CorpusFigures, type TurnMillis } from './report.js';
import { scoreOutcome, summarize, type Scored } from './score.js';

let prefix = 'eval';
const say = (line: string): void => {
  process.stderr.write(`${line.startsWith('  ') ? `${prefix}${line}` : line}\n`);
};

const USAGE = `usage: npm run eval [-- --corpus <names>] [--split development|held_out] [--kinds <kinds>] [--ids <ids>] [--no-write] [--check] [--min-focus-coverage <0..1>]   (corpora: ${CORPORA.map((c) => c.name).join(', ')}; kinds: comma-separated, from ${QUESTION_KINDS.join(', ')}; ids: question ids, whose answers are printed)`;

interface Usage {
  readonly corpora: readonly CorpusSpec[];
  readonly split: Split | undefined;
  readonly kinds: readonly QuestionKind[];
  readonly ids: readonly string[] | undefined;
  readonly write: boolean;
  /** Only check the question sets against their corpora and count them per kind and half. */
  readonly check: boolean;
  /** HELIX_ANSWER_MIN_FOCUS_COVERAGE for the evaluated server (calibration); the configured default when undefined. */
  readonly minFocusCoverage: string | undefined;
}

const parseUsage = (): Usage => {
  const { values } = parseArgs({
    options: {
      corpus: { type: 'string' },
      split: { type: 'string' },
      kinds: { type: 'string' },
      ids: { type: 'string' },
      'no-write': { type: 'boolean' },
      check: { type: 'boolean' },
      'min-focus-coverage': { type: 'string' },
    },
  });
  const ids = values.ids?.split(',');
  const kinds = values.kinds === undefined ? [...QUESTION_KINDS] : values.kinds.split(',');
  const unknown = kinds.filter((k) => !(QUESTION_KINDS as readonly string[]).includes(k));
  if (unknown.length > 0) throw new RangeError(`unknown kind ${unknown.join(', ')}`);
  const names = values.corpus?.split(',');
  const corpora = names === undefined ? CORPORA : CORPORA.filter((c) => names.includes(c.name));
  if (names !== undefined && corpora.length !== names.length)
    throw new RangeError(`unknown corpus among ${values.corpus}`);
  if (values.split !== undefined && !(SPLITS as readonly string[]).includes(values.split))
    throw new RangeError(`unknown split ${values.split}`);
  return {
    corpora,
    split: values.split as Split | undefined,
    kinds: kinds as QuestionKind[],
    ids,
    check: values.check === true,
    minFocusCoverage: values['min-focus-coverage'],
    write:
      values['no-write'] !== true &&
      values['min-focus-coverage'] === undefined &&
      values.kinds === undefined &&
      ids === undefined &&
      names === undefined &&
      values.split === undefined,
  };
};

const askAll = async (client: HelixRestClient, questions: readonly Question[], showAnswers: boolean) => {
  const scored: Scored[] = [];
  const turnMillis: number[] = [];
  for (const [index, question] of questions.entries()) {
    const asked = await askQuestion(client, question);
    const verdict = scoreOutcome(question, asked.outcome);
    scored.push({ question, outcome: asked.outcome, verdict });
    turnMillis.push(...asked.turnMillis);
    // A held-out question is reported in aggregate only: its progress line names no verdict.
    const authority = asked.outcome.authority;
    const trace =
      authority === null
        ? ''
        : `; authority ${authority.reason ?? 'authorized'}, focus ${authority.coverage?.toFixed(2) ?? '–'}`;
    say(
      question.split === 'held_out'
        ? `  [${index + 1}/${questions.length}] held-out question`
        : `  [${index + 1}/${questions.length}] ${question.id}: ${verdict} (${asked.outcome.stepsUsed} steps${trace})`,
    );
    if (showAnswers)
      say(
        `    ${question.question}\n    -> ${asked.outcome.answer ?? `(no answer; next: ${asked.outcome.recommendedNextAction})`}\n    contract ${JSON.stringify(authority?.detail ?? null)}`,
      );
  }
  return { scored, turnMillis };
};

const millisOf = (samples: readonly number[]): TurnMillis => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), turns: sorted.length };
};

/** Grows the library with the corpus's scale files (the Git manual's AsciiDoc sources) and times the same questions' turns again. */
const measureAtScale = async (
  store: Store,
  corpus: Corpus,
  client: HelixRestClient,
  questions: readonly Question[],
): Promise<CorpusFigures['atScale']> => {
  if (corpus.scaleFiles.length === 0) return undefined;
  say(`${prefix}: adding ${corpus.scaleFiles.length} scale files for the latency figure at scale …`);
  await ingestPaths(store, [...corpus.scaleFiles], Date.now, () => {});
  const passages = await store.read.library.countPassages();
  const samples: number[] = [];
  for (const question of questions) samples.push(...(await askQuestion(client, question)).turnMillis);
  say(`${prefix}: ${passages} passages; timed ${samples.length} turns`);
  return { passages, turnMillis: millisOf(samples) };
};

const questionsFile = (spec: CorpusSpec): string => fileURLToPath(new URL(`./${spec.questions}`, import.meta.url));

/** The corpus and its selected questions, checked against the documents (throws when the set does not hold). */
const checkedCorpus = async (spec: CorpusSpec, usage: Usage): Promise<{ corpus: Corpus; questions: Question[] }> => {
  prefix = `eval ${spec.name}`;
  const override = usage.corpora.length === 1 ? process.env.HELIX_EVAL_CORPUS : undefined;
  const corpus = locateCorpus(spec, process.env, say, override);
  const { kinds, ids, split } = usage;
  const questions = loadQuestions(questionsFile(spec)).filter(
    (q) =>
      kinds.includes(q.kind) && (ids === undefined || ids.includes(q.id)) && (split === undefined || q.split === split),
  );
  const problems = checkQuestions(questions, await corpusTexts(corpus));
  if (problems.length > 0) {
    for (const problem of problems) say(`${prefix}: question set: ${problem}`);
    throw new Error(
      `the ${spec.name} question set does not hold against ${corpus.version} (${problems.length} problems)`,
    );
  }
  return { corpus, questions };
};

/** `--check`: per kind, development / held-out counts of a checked question set. */
const printCounts = (spec: CorpusSpec, corpus: Corpus, questions: readonly Question[]): void => {
  const cells = QUESTION_KINDS.flatMap((kind) => {
    const ofKind = questions.filter((q) => q.kind === kind);
    if (ofKind.length === 0) return [];
    const count = (half: Split | undefined): number => ofKind.filter((q) => q.split === half).length;
    return [
      `${kind} ${count('development')}/${count('held_out')}${count(undefined) > 0 ? ` (+${count(undefined)} unsplit)` : ''}`,
    ];
  });
  process.stdout.write(
    `${spec.name}: ${corpus.version}, ${corpus.files.length} files, ${(corpus.bytes / 1_000_000).toFixed(1)} MB; ${questions.length} questions hold (development/held-out): ${cells.join(', ')}\n`,
  );
};

/** One corpus end to end on its own fresh store. */
const evaluateCorpus = async (spec: CorpusSpec, usage: Usage): Promise<CorpusFigures> => {
  const started = performance.now();
  const { corpus, questions } = await checkedCorpus(spec, usage);
  const { ids } = usage;
  const dir = mkdtempSync(join(tmpdir(), 'helix-eval-'));
  const database = join(dir, 'eval.db');
  const store = await openStore(database);
  try {
    say(`${prefix}: ${corpus.version}, ${corpus.files.length} files; ingesting into ${database} …`);
    const ingestStarted = performance.now();
    const report = await ingestPaths(store, [...corpus.files], Date.now, (p) => {
      if (p.index % 50 === 0 || p.index === p.total) say(`  ingested ${p.index}/${p.total}`);
    });
    const ingestSeconds = (performance.now() - ingestStarted) / 1000;
    const passages = await store.read.library.countPassages();
    say(`${prefix}: ${report.added} documents, ${passages} passages in ${ingestSeconds.toFixed(1)} s`);
    const label = (displayPath: string): string => labelOf(corpus.directory, resolve(displayPath));
    const baseline = await baselineOver(store, label);
    const recallOf = (half: Split) =>
      measureFileRecall(
        store,
        baseline,
        questions.filter((q) => q.split === half),
        label,
      );
    const recall = { development: await recallOf('development'), held_out: await recallOf('held_out') };
    const config = loadConfig(
      // One client asking question after question: the rate limits would only pace the eval.
      {
        HELIX_LOG_LEVEL: 'warn',
        HELIX_AGENT_DATABASE_SCOPES: 'research_library',
        HELIX_AGENT_PRINCIPAL_RATE_LIMIT: '0',
        HELIX_AGENT_IP_RATE_LIMIT: '0',
        ...(usage.minFocusCoverage === undefined ? {} : { HELIX_ANSWER_MIN_FOCUS_COVERAGE: usage.minFocusCoverage }),
      },
      { host: '127.0.0.1', port: 0, database },
    );
    const helix = await startHelix(config, { store, logger: createLogger('warn') });
    try {
      const { key } = await createApiKey(
        store,
        {
          tenantId: 'eval',
          accountId: 'eval',
          scopes: ['helix.agent_runs.read', 'helix.agent_runs.write', 'helix.data.research_library.read'],
          label: 'npm run eval',
        },
        Date.now(),
      );
      say(`${prefix}: asking ${questions.length} questions`);
      const client = new HelixRestClient(helix.url, key);
      const { scored, turnMillis } = await askAll(client, questions, ids !== undefined);
      const atScale = ids === undefined ? await measureAtScale(store, corpus, client, questions) : undefined;
      return {
        name: spec.name,
        version: corpus.version,
        generator: spec.generator,
        license: spec.license,
        files: corpus.files.length,
        bytes: corpus.bytes,
        ingest: { seconds: ingestSeconds, passages },
        scored,
        recall,
        turnMillis: millisOf(turnMillis),
        ...(atScale === undefined ? {} : { atScale }),
        seconds: (performance.now() - started) / 1000,
      };
    } finally {
      await helix.close();
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
};

const printCorpus = (c: CorpusFigures): void => {
  for (const half of SPLITS) {
    const h = halfFigures(c.scored.filter((s) => s.question.split === half));
    process.stdout.write(
      `${c.name} ${half}: ${h.questions} questions, answerable correct ${h.correct}/${h.answerable}, unanswerable declined ${h.declinedUnanswerable}/${h.unanswerable}, authorized but wrong ${h.authorizedWrong}; recall@5 ${c.recall[half].helix.toFixed(2)} vs BM25 ${c.recall[half].baseline.toFixed(2)}\n`,
    );
  }
  for (const s of summarize(c.scored).filter((k) => k.questions > 0))
    process.stdout.write(`${c.name} ${s.kind}: ${s.questions} questions, right ${(s.rightShare * 100).toFixed(0)} %\n`);
  // Per-question verdicts of the development half only: the held-out half is read in aggregate.
  const verdicts = Object.fromEntries(
    c.scored.filter((s) => s.question.split !== 'held_out').map((s) => [s.question.id, s.verdict]),
  );
  process.stdout.write(
    `${JSON.stringify({ eval: 'helix', corpus: c.name, version: c.version, seconds: Math.round(c.seconds), recall: c.recall, turn_p50_ms: c.turnMillis.p50, verdicts })}\n`,
  );
};

const main = async (): Promise<void> => {
  const usage = parseUsage();
  if (usage.check) {
    for (const spec of usage.corpora) {
      const { corpus, questions } = await checkedCorpus(spec, usage);
      printCounts(spec, corpus, questions);
    }
    return;
  }
  const started = performance.now();
  const loadAverage = loadavg()[0] ?? 0;
  const corpora: CorpusFigures[] = [];
  for (const spec of usage.corpora) {
    const figures = await evaluateCorpus(spec, usage);
    printCorpus(figures);
    corpora.push(figures);
  }
  const figures = {
    date: new Date().toISOString().slice(0, 10),
    machine: `node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}`,
    seconds: (performance.now() - started) / 1000,
    loadAverage,
    corpora,
  };
  for (const g of goalsOf(figures))
    process.stdout.write(
      `goal (held-out): ${g.name} ${g.target}: ${g.met ? 'MET' : 'NOT MET'} (${g.figures.join(', ')})\n`,
    );
  if (usage.write) {
    writeFileSync(new URL('../../docs/quality.md', import.meta.url), renderQualityDoc(figures));
    say('eval: wrote docs/quality.md');
  }
};

main().catch((err: unknown) => {
  if (err instanceof RangeError) {
    say(`${err.message}\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  say(
    `eval failed: ${err instanceof CorpusUnavailableError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
  );
  process.exitCode = 1;
});
