/**
 * `npm run check:histories [-- --seconds N] [--seed S] [--no-write]`: records histories under
 * concurrent load and checks each against its sequential model (scripts/history/): the run
 * register against real Helix processes, with and without `kill -9`, on SQLite and (when
 * HELIX_TEST_POSTGRES_URL names a server) on two PostgreSQL replicas; bindings and agent-task calls
 * against a Helix in this process on each store. The longer version of test/history.*.test.ts. Prints a table, writes its figures into docs/reliability.md (unless
 * --no-write). Exit 0 when every history is linearizable; 1 on a violation or an undecided object;
 * 2 on bad usage. Progress goes to stderr.
 */
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { figuresSection, plainTable, summaryRows, writeFigures } from './history/report.js';
import { runScenario, type ScenarioOptions } from './history/scenario.js';
import { summarize, type ScenarioSummary } from './history/summary.js';
import { storeFlavours, type StoreFlavour, type TestStore } from '../test/support/stores.js';
import { agentTaskCalls } from './history/agentTaskCalls.js';
import { recordAgentTasks } from './history/agentTaskScenario.js';
import { recordBindings, summarizeBindings } from './history/bindingsScenario.js';

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

/** One scenario to run: its name (for progress) and how to record and check it. */
interface Plan {
  readonly name: string;
  readonly seconds: number;
  run(): Promise<ScenarioSummary>;
}

/** The run register against separate processes, with and without kill -9 (one per process at a time). */
const runRegisterPlans = (settings: Settings, flavours: readonly StoreFlavour[]): Plan[] => {
  const durationMs = settings.seconds * 1000;
  const base = { durationMs, seed: settings.seed, budgetMs: 60_000 };
  const processes = flavours.filter((f) => f.name !== 'pglite');
  return processes.flatMap((flavour) => {
    const scenarios: ScenarioOptions[] =
      flavour.name === 'postgres'
        ? [
            { ...base, name: 'runs, postgres, one process', replicas: 1, killEveryMs: 0 },
            { ...base, name: 'runs, postgres, two replicas, kill -9', replicas: 2, killEveryMs: 10_000 },
          ]
        : [
            { ...base, name: 'runs, sqlite', replicas: 1, killEveryMs: 0 },
            { ...base, name: 'runs, sqlite, kill -9', replicas: 1, killEveryMs: 10_000 },
          ];
    return scenarios.map((options) => ({
      name: options.name,
      seconds: settings.seconds,
      run: () => withStore(flavour, async (store) => (await runScenario(store, options)).summary),
    }));
  });
};

/** Bindings and agent-task calls against a Helix in this process, on every store (PGlite too). */
const inProcessPlans = (settings: Settings, flavours: readonly StoreFlavour[]): Plan[] =>
  flavours.flatMap((flavour) => [
    {
      name: `bindings, ${flavour.name}`,
      seconds: settings.seconds,
      run: async () => {
        const recorded = await recordBindings(flavour, {
          cells: 2,
          clientsPerCell: 3,
          durationMs: settings.seconds * 1000,
          seed: settings.seed,
        });
        return summarizeBindings(`bindings, ${flavour.name}`, settings.seed, recorded);
      },
    },
    {
      name: `agent-task calls, ${flavour.name}`,
      seconds: settings.seconds,
      run: async () => {
        const recorded = await recordAgentTasks(flavour, {
          agents: 4,
          slots: 3,
          durationMs: settings.seconds * 1000,
          seed: settings.seed,
        });
        const recording = { name: `agent-task calls, ${flavour.name}`, replicas: 1, kills: 0, seed: settings.seed };
        return summarize(recording, agentTaskCalls(), recorded.history);
      },
    },
  ]);

const withStore = async <T>(
  flavour: StoreFlavour,
  work: (store: { location: string; store: TestStore['store'] }) => Promise<T>,
): Promise<T> => {
  const store = await flavour.create();
  try {
    if (store.location === undefined) throw new Error(`${flavour.name} has no location a process can open`);
    return await work({ location: store.location, store: store.store });
  } finally {
    await store.dispose();
  }
};

const progress = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

const runPlan = async (plan: Plan): Promise<ScenarioSummary> => {
  progress(`[histories] ${plan.name}: ${plan.seconds} s of load`);
  const started = Date.now();
  const ticker = setInterval(
    () => progress(`[histories] ${plan.name}: ${Math.round((Date.now() - started) / 1000)} s`),
    30_000,
  );
  try {
    const summary = await plan.run();
    progress(
      `[histories] ${plan.name}: ${summary.operations} operations on ${summary.objects} objects, ` +
        `${summary.verdicts.violation} violations, ${summary.verdicts.undecided} undecided, checked in ${summary.checkMs} ms`,
    );
    return summary;
  } finally {
    clearInterval(ticker);
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
  const flavours = storeFlavours();
  const skipped = flavours.some((f) => f.name === 'postgres')
    ? []
    : ['PostgreSQL (HELIX_TEST_POSTGRES_URL is unset; `.ci/postgres.sh` starts a local server)'];
  for (const line of skipped) progress(`[histories] skipped: ${line}`);
  const summaries: ScenarioSummary[] = [];
  progress(`[histories] seed ${settings.seed}`);
  for (const plan of [...runRegisterPlans(settings, flavours), ...inProcessPlans(settings, flavours)])
    summaries.push(await runPlan(plan));
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
