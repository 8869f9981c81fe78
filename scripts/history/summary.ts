import { performance } from 'node:perf_hooks';
import type { Operation } from './history.js';
import type { Model } from './model.js';
import { checkHistory, type Verdict } from './search.js';

/** What one recorded history came to: its size, how it was made, and the checker's verdicts. */
export interface ScenarioSummary {
  readonly name: string;
  /** The model the history was checked against. */
  readonly model: string;
  /** Helix processes serving the database (in-process scenarios: 1). */
  readonly replicas: number;
  readonly kills: number;
  /** Operations in the history (requests that reached a server). */
  readonly operations: number;
  /** Of those, the ones whose outcome the client could not know (timeout, reset, 5xx). */
  readonly unknown: number;
  /** Objects checked, each on its own (runs, cells, calls). */
  readonly objects: number;
  readonly verdicts: Readonly<Record<Verdict, number>>;
  readonly checkMs: number;
  /** One explanation per object that is not linearizable (or undecided). */
  readonly findings: readonly string[];
}

export interface Recording {
  readonly name: string;
  readonly replicas: number;
  readonly kills: number;
  readonly seed: number;
}

/** Checks `history` under `model` and sums it up; a finding names the stuck operation and what came before. */
export const summarize = <S, I, O>(
  recording: Recording,
  model: Model<S, I, O>,
  history: readonly Operation<I, O>[],
  budgetMs = 30_000,
): ScenarioSummary => {
  const started = performance.now();
  const results = checkHistory(model, history, { budgetMs });
  const checkMs = Math.round(performance.now() - started);
  const verdicts: Record<Verdict, number> = { linearizable: 0, violation: 0, undecided: 0 };
  for (const r of results) verdicts[r.verdict]++;
  const findings = results
    .filter((r) => r.verdict !== 'linearizable')
    .map((r) => {
      const e = r.explanation;
      if (e === undefined) return `${r.object}: ${r.verdict} after ${r.steps} steps (seed ${recording.seed})`;
      const recent = e.placed.slice(-8).map((p) => `  placed ${model.describe(p.op)} [phase ${p.phase}]`);
      return [`${r.object}: ${r.verdict}; no state explains ${model.describe(e.stuck)}`, ...recent].join('\n');
    });
  return {
    name: recording.name,
    model: model.name,
    replicas: recording.replicas,
    kills: recording.kills,
    operations: history.length,
    unknown: history.filter((op) => op.output === undefined).length,
    objects: results.length,
    verdicts,
    checkMs,
    findings,
  };
};

/** Summaries of parts of one scenario (each checked under its own model instance) as one. */
export const mergeSummaries = (parts: readonly ScenarioSummary[]): ScenarioSummary => {
  const [first] = parts;
  if (first === undefined) throw new Error('no summaries to merge');
  const verdicts: Record<Verdict, number> = { linearizable: 0, violation: 0, undecided: 0 };
  let operations = 0;
  let unknown = 0;
  let objects = 0;
  let checkMs = 0;
  const findings: string[] = [];
  for (const part of parts) {
    operations += part.operations;
    unknown += part.unknown;
    objects += part.objects;
    checkMs += part.checkMs;
    findings.push(...part.findings);
    for (const verdict of ['linearizable', 'violation', 'undecided'] as const)
      verdicts[verdict] += part.verdicts[verdict];
  }
  return { ...first, operations, unknown, objects, verdicts, checkMs, findings };
};
