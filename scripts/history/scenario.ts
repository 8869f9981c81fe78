import { createApiKey } from '../../src/auth/apiKeys.js';
import type { Store } from '../../src/store/port.js';
import { Fleet } from './fleet.js';
import { Random } from './random.js';
import { runRegister, type RunOperation } from './runRegister.js';
import { runWorkload } from './runWorkload.js';
import { summarize, type ScenarioSummary } from './summary.js';

export interface ScenarioOptions {
  readonly name: string;
  /** Helix processes on the database: 1 on SQLite; 2 or more on PostgreSQL. */
  readonly replicas: number;
  readonly durationMs: number;
  /** A `kill -9` of one process every this many ms; 0 for none. */
  readonly killEveryMs: number;
  readonly seed: number;
  readonly clients?: number;
  readonly runs?: number;
  /** Per-object search budget. */
  readonly budgetMs?: number;
}

export interface ScenarioOutcome {
  readonly summary: ScenarioSummary;
  /** The recorded history, for perturbation tests of the checker on real data. */
  readonly history: readonly RunOperation[];
}

/** Records a history of the run register under load (and crashes) on `database`, then checks it. */
export const runScenario = async (
  database: { readonly location: string; readonly store: Store },
  options: ScenarioOptions,
): Promise<ScenarioOutcome> => {
  const { key } = await createApiKey(
    database.store,
    { tenantId: 'histories', accountId: 'histories', scopes: ['helix.agent_runs.read', 'helix.agent_runs.write'] },
    Date.now(),
  );
  const fleet = await Fleet.start(database.location, options.replicas, TURN_MAX_MS);
  let recorded: Awaited<ReturnType<typeof runWorkload>>;
  try {
    fleet.killEvery(options.killEveryMs, DOWN_MS);
    recorded = await runWorkload(
      { urls: () => fleet.urls(), token: key },
      {
        runs: options.runs ?? 4,
        clients: options.clients ?? 6,
        durationMs: options.durationMs,
        timeoutMs: 4_000,
        maxSteps: 40,
        random: new Random(options.seed),
      },
    );
  } finally {
    await fleet.stop();
  }
  const summary = summarize(
    { name: options.name, replicas: options.replicas, kills: fleet.kills, seed: options.seed },
    runRegister(),
    recorded.history,
    options.budgetMs,
  );
  return { summary, history: recorded.history };
};

/** Turns take a random 0..60 ms: long enough for cancels and reads to land inside them. */
const TURN_MAX_MS = 60;
/** How long a killed process stays down before it is started again. */
const DOWN_MS = 300;
