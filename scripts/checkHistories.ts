/**
 * `npm run check:histories [-- --seconds N] [--seed S] [--no-write]`: records histories of the run
 * register under concurrent load against real Helix processes, with and without `kill -9`, on
 * SQLite and (when HELIX_TEST_POSTGRES_URL names a server) on two PostgreSQL replicas, and checks
 * each against the sequential model (scripts/history/). The longer version of
 * test/history.runs.test.ts. Prints a table, writes its figures into docs/reliability.md (unless
 * --no-write). Exit 0 when every history is linearizable; 1 on a violation or an undecided object;
 * 2 on bad usage. Progress goes to stderr.
 */
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { figuresSection, plainTable, summaryRows, writeFigures } from './history/report.js';
import { runScenario, type ScenarioOptions, type ScenarioSummary } from './history/scenario.js';
import { serverStoreFlavours, type StoreFlavour } from '../test/support/stores.js';

const USAGE =
  'usage: npm run check:histories [-- --seconds N] [--seed S] [--no-write]   (N from 10 to 3600; default 120)';

interface Settings {
  readonly seconds: number;
  readonly seed: number;
  readonly write: boolean;
}

const parse = (args: readonly string[]): Settings | string => {
  let seconds = 120;
  let seed = Date.now() % 1_000_000;
  let write = true;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const [name, inline] = arg.includes('=') ? arg.split('=', 2) : [arg, undefined];
    const value = (): number => Number(inline ?? args[++i] ?? '');
    if (name === '--seconds') seconds = value();
    else if (name === '--seed') seed = value();
    else if (name === '--no-write') write = false;
    else return `unknown argument ${arg}`;
  }
  if (!Number.isInteger(seconds) || seconds < 10 || seconds > 3600) return 'seconds must be an integer from 10 to 3600';
  if (!Number.isInteger(seed) || seed < 0) return 'seed must be a non-negative integer';
  return { seconds, seed, write };
};

interface Plan {
  readonly flavour: StoreFlavour;
  readonly options: ScenarioOptions;
}

const plans = (settings: Settings, flavours: readonly StoreFlavour[]): Plan[] => {
  const durationMs = settings.seconds * 1000;
  const base = { durationMs, seed: settings.seed, budgetMs: 60_000 };
  return flavours.flatMap((flavour): Plan[] =>
    flavour.name === 'postgres'
      ? [
          { flavour, options: { ...base, name: 'postgres, one process', replicas: 1, killEveryMs: 0 } },
          { flavour, options: { ...base, name: 'postgres, two replicas, kill -9', replicas: 2, killEveryMs: 10_000 } },
        ]
      : [
          { flavour, options: { ...base, name: 'sqlite', replicas: 1, killEveryMs: 0 } },
          { flavour, options: { ...base, name: 'sqlite, kill -9', replicas: 1, killEveryMs: 10_000 } },
        ],
  );
};

const progress = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

const runPlan = async ({ flavour, options }: Plan): Promise<ScenarioSummary> => {
  progress(`[histories] ${options.name}: ${options.durationMs / 1000} s of load, seed ${options.seed}`);
  const started = Date.now();
  const ticker = setInterval(
    () => progress(`[histories] ${options.name}: ${Math.round((Date.now() - started) / 1000)} s`),
    30_000,
  );
  const store = await flavour.create();
  try {
    if (store.location === undefined) throw new Error(`${flavour.name} has no location a process can open`);
    const { summary } = await runScenario({ location: store.location, store: store.store }, options);
    progress(
      `[histories] ${options.name}: ${summary.operations} operations on ${summary.objects} runs, ` +
        `${summary.verdicts.violation} violations, ${summary.verdicts.undecided} undecided, checked in ${summary.checkMs} ms`,
    );
    return summary;
  } finally {
    clearInterval(ticker);
    await store.dispose();
  }
};

const commit = (): string => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
};

const main = async (): Promise<number> => {
  const settings = parse(process.argv.slice(2));
  if (typeof settings === 'string') {
    process.stderr.write(`${settings}\n${USAGE}\n`);
    return 2;
  }
  const flavours = serverStoreFlavours();
  const skipped = flavours.some((f) => f.name === 'postgres')
    ? []
    : ['PostgreSQL (HELIX_TEST_POSTGRES_URL is unset; `.ci/postgres.sh` starts a local server)'];
  for (const line of skipped) progress(`[histories] skipped: ${line}`);
  const summaries: ScenarioSummary[] = [];
  for (const plan of plans(settings, flavours)) summaries.push(await runPlan(plan));
  process.stdout.write(`${plainTable(summaryRows(summaries)).join('\n')}\n`);
  for (const s of summaries) for (const finding of s.findings) process.stdout.write(`\n${s.name}: ${finding}\n`);
  if (settings.write) {
    await writeFigures(
      figuresSection(summaries, {
        date: new Date().toISOString().slice(0, 10),
        commit: commit(),
        secondsPerScenario: settings.seconds,
        machine: `${cpus().length} cores, Node ${process.version}`,
        skipped,
      }),
    );
    progress('[histories] figures written to docs/reliability.md');
  }
  return summaries.every((s) => s.verdicts.violation === 0 && s.verdicts.undecided === 0) ? 0 : 1;
};

process.exitCode = await main();
