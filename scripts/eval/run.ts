/**
 * `npm run eval [-- --kinds <kinds>] [--no-write]`: answer quality on a real manual nobody here wrote.
 * Ingests the corpus (corpus.ts) into a fresh embedded SQLite store, checks the question set
 * against the documents, asks every question through Helix's REST API, scores the outcomes
 * (score.ts), measures file recall@5 beside a plain BM25 baseline, and writes docs/quality.md
 * (a full run only). Progress goes to stderr; the summary and one JSON line to stdout.
 * Exit 0 whatever the figures; 1 if the evaluation breaks or the question set does not hold; 2 on bad usage.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { convert } from 'html-to-text';
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
import { CorpusUnavailableError, locateCorpus, type Corpus } from './corpus.js';
import { checkQuestions, loadQuestions, QUESTION_KINDS, type Question, type QuestionKind } from './questionSet.js';
import { baselineOver, measureFileRecall } from './recall.js';
import { goalsOf, renderQualityDoc, type EvalFigures, type TurnMillis } from './report.js';
import { scoreOutcome, summarize, type Scored } from './score.js';

const say = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

const USAGE = `usage: npm run eval [-- --kinds <kinds>] [--ids <ids>] [--no-write]   (kinds: comma-separated, from ${QUESTION_KINDS.join(', ')}; ids: question ids, whose answers are printed)`;

const parseUsage = (): { kinds: readonly QuestionKind[]; ids: readonly string[] | undefined; write: boolean } => {
  const { values } = parseArgs({
    options: { kinds: { type: 'string' }, ids: { type: 'string' }, 'no-write': { type: 'boolean' } },
  });
  const ids = values.ids?.split(',');
  const kinds = values.kinds === undefined ? [...QUESTION_KINDS] : values.kinds.split(',');
  const unknown = kinds.filter((k) => !(QUESTION_KINDS as readonly string[]).includes(k));
  if (unknown.length > 0) throw new RangeError(`unknown kind ${unknown.join(', ')}`);
  return {
    kinds: kinds as QuestionKind[],
    ids,
    write: values['no-write'] !== true && values.kinds === undefined && ids === undefined,
  };
};

/** Plain text of every corpus page by base name, to check the question set the way grep would. */
const corpusTexts = (corpus: Corpus): Map<string, string> =>
  new Map(corpus.files.map((file) => [basename(file), convert(readFileSync(file, 'utf8'), { wordwrap: false })]));

const askAll = async (client: HelixRestClient, questions: readonly Question[], showAnswers: boolean) => {
  const scored: Scored[] = [];
  const turnMillis: number[] = [];
  for (const [index, question] of questions.entries()) {
    const asked = await askQuestion(client, question);
    const verdict = scoreOutcome(question, asked.outcome);
    scored.push({ question, outcome: asked.outcome, verdict });
    turnMillis.push(...asked.turnMillis);
    say(`  [${index + 1}/${questions.length}] ${question.id}: ${verdict} (${asked.outcome.stepsUsed} steps)`);
    if (showAnswers)
      say(
        `    ${question.question}\n    -> ${asked.outcome.answer ?? `(no answer; next: ${asked.outcome.recommendedNextAction})`}`,
      );
  }
  return { scored, turnMillis };
};

const millisOf = (samples: readonly number[]): TurnMillis => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), turns: sorted.length };
};

/** Grows the library with the manual's AsciiDoc sources and times the same questions' turns again. */
const measureAtScale = async (
  store: Store,
  corpus: Corpus,
  client: HelixRestClient,
  questions: readonly Question[],
): Promise<EvalFigures['atScale']> => {
  if (corpus.scaleFiles.length === 0) return undefined;
  say(`eval: adding the manual's ${corpus.scaleFiles.length} AsciiDoc sources for the latency figure at scale …`);
  await ingestPaths(store, [...corpus.scaleFiles], Date.now, () => {});
  const passages = await store.read.library.countPassages();
  const samples: number[] = [];
  for (const question of questions) samples.push(...(await askQuestion(client, question)).turnMillis);
  say(`eval: ${passages} passages; timed ${samples.length} turns`);
  return { passages, turnMillis: millisOf(samples) };
};

const main = async (): Promise<void> => {
  const { kinds, ids, write } = parseUsage();
  const corpus = locateCorpus(process.env, say);
  const questions = loadQuestions().filter((q) => kinds.includes(q.kind) && (ids === undefined || ids.includes(q.id)));
  if (ids !== undefined && questions.length !== ids.length)
    throw new RangeError(`unknown question id among ${ids.join(', ')}`);
  const problems = checkQuestions(questions, corpusTexts(corpus));
  if (problems.length > 0) {
    for (const problem of problems) say(`question set: ${problem}`);
    throw new Error(`the question set does not hold against ${corpus.version} (${problems.length} problems)`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'helix-eval-'));
  const database = join(dir, 'eval.db');
  const store = await openStore(database);
  try {
    say(`eval: ${corpus.version}, ${corpus.files.length} files; ingesting into ${database} …`);
    const ingestStarted = performance.now();
    const report = await ingestPaths(store, [...corpus.files], Date.now, (p) => {
      if (p.index % 50 === 0 || p.index === p.total) say(`  ingested ${p.index}/${p.total}`);
    });
    const ingestSeconds = (performance.now() - ingestStarted) / 1000;
    const passages = await store.read.library.countPassages();
    say(`eval: ${report.added} documents, ${passages} passages in ${ingestSeconds.toFixed(1)} s`);
    const recall = await measureFileRecall(store, await baselineOver(store), questions);
    const config = loadConfig(
      // One client asking question after question: the rate limits would only pace the eval.
      {
        HELIX_LOG_LEVEL: 'warn',
        HELIX_AGENT_DATABASE_SCOPES: 'research_library',
        HELIX_AGENT_PRINCIPAL_RATE_LIMIT: '0',
        HELIX_AGENT_IP_RATE_LIMIT: '0',
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
      say(`eval: asking ${questions.length} questions`);
      const client = new HelixRestClient(helix.url, key);
      const { scored, turnMillis } = await askAll(client, questions, ids !== undefined);
      const atScale = ids === undefined ? await measureAtScale(store, corpus, client, questions) : undefined;
      const figures: EvalFigures = {
        date: new Date().toISOString().slice(0, 10),
        machine: `node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}`,
        corpus: { version: corpus.version, files: corpus.files.length, bytes: corpus.bytes },
        ingest: { seconds: ingestSeconds, passages },
        scored,
        recall,
        turnMillis: millisOf(turnMillis),
        ...(atScale === undefined ? {} : { atScale }),
      };
      printAndWrite(figures, write);
    } finally {
      await helix.close();
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
};

function printAndWrite(figures: EvalFigures, write: boolean): void {
  for (const s of summarize(figures.scored))
    process.stdout.write(`${s.kind}: ${s.questions} questions, right ${(s.rightShare * 100).toFixed(0)} %\n`);
  for (const g of goalsOf(figures))
    process.stdout.write(`goal: ${g.name} ${g.target}: ${g.met ? 'MET' : 'NOT MET'} (${g.figure})\n`);
  if (write) {
    writeFileSync(new URL('../../docs/quality.md', import.meta.url), renderQualityDoc(figures));
    say('eval: wrote docs/quality.md');
  }
  const verdicts = Object.fromEntries(figures.scored.map((s) => [s.question.id, s.verdict]));
  process.stdout.write(
    `${JSON.stringify({ eval: 'helix', date: figures.date, corpus: figures.corpus.version, recall_helix: figures.recall.helix, recall_bm25: figures.recall.baseline, turn_p50_ms: figures.turnMillis.p50, verdicts })}\n`,
  );
}

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
