// Issue 36: histories of the run register recorded against real Helix processes over real HTTP,
// with `kill -9` mid-load, checked for linearizability by the independent model in
// scripts/history/runRegister.ts. SQLite: one process on a file, killed and restarted. Real
// PostgreSQL (HELIX_TEST_POSTGRES_URL, as .ci/run provides): two replicas, each killed in turn.
// `npm run check:histories` runs the same scenarios longer and writes docs/reliability.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRegister, type RunOperation } from '../scripts/history/runRegister.js';
import { runScenario, type ScenarioOutcome } from '../scripts/history/scenario.js';
import { checkObject } from '../scripts/history/search.js';
import { ceilingFor } from './support/ceilings.js';
import { serverStoreFlavours, type TestStore } from './support/stores.js';

const DURATION_MS = 12_000;
const flavours = serverStoreFlavours();
if (!flavours.some((f) => f.name === 'postgres'))
  console.warn(
    'history.runs.test.ts: HELIX_TEST_POSTGRES_URL is unset, so the two-replica PostgreSQL history is skipped',
  );

describe.each(flavours)('run register histories on $name with kill -9', (flavour) => {
  const replicas = flavour.name === 'postgres' ? 2 : 1;
  let store: TestStore | undefined;
  let recorded: ScenarioOutcome;

  beforeAll(
    async () => {
      store = await flavour.create();
      const location = store.location;
      if (location === undefined) throw new Error(`${flavour.name} has no location a server process can open`);
      recorded = await runScenario(
        { location, store: store.store },
        // A kill every 3 s, round robin: two or more kills, so on two replicas each is killed at least once.
        { name: flavour.name, replicas, durationMs: DURATION_MS, killEveryMs: 3_000, seed: 36 },
      );
    },
    ceilingFor(8, DURATION_MS),
  );
  afterAll(async () => store?.dispose());

  it('every run history is linearizable under the sequential model', () => {
    const { summary } = recorded;
    expect(summary.findings, summary.findings.join('\n\n')).toEqual([]);
    expect(summary.verdicts).toEqual({ linearizable: summary.objects, violation: 0, undecided: 0 });
  });

  it('the history is not trivial: crashes, races, refusals, answers, replays and unknown outcomes are in it', () => {
    const { summary, history } = recorded;
    expect(summary.kills).toBeGreaterThanOrEqual(2);
    expect(summary.operations).toBeGreaterThan(1_000);
    expect(summary.objects).toBeGreaterThan(10);
    const answered = (code: string) => history.some((op) => op.output?.code === code);
    for (const code of ['run_busy', 'version_conflict', 'run_cancelled', 'run_not_active', 'invalid_answer'])
      expect(answered(code), code).toBe(true);
    const answeredQuestion = history.some(
      (op) => op.input.kind === 'continue' && op.input.answers.length > 0 && op.output?.status === 200,
    );
    expect(answeredQuestion, 'a continue that answered a pending question').toBe(true);
    expect(history.filter((op) => op.input.kind === 'start').length).toBeGreaterThanOrEqual(summary.objects);
    expect(history.some((op) => op.output?.replayed === true)).toBe(true);
    expect(history.some((op) => op.output === undefined)).toBe(true);
  });

  it('the checker rejects the same real history with one forbidden answer edited in', () => {
    const { history } = recorded;
    let rejected = 0;
    let tried = 0;
    for (const [name, applies, edit] of PERTURBATIONS) {
      const candidates = history.filter(applies).slice(0, 5);
      expect(candidates.length, `no candidates for "${name}"`).toBeGreaterThan(0);
      for (const target of candidates) {
        const ops = history
          .filter((op) => op.object === target.object)
          .map((op) => (op.id === target.id ? edit(op) : op));
        const verdict = checkObject(runRegister().specFor(ops), target.object, ops, { budgetMs: 20_000 }).verdict;
        tried++;
        if (verdict === 'violation') rejected++;
        else expect.soft(verdict, `${name}: ${runRegister().describe(target)}`).toBe('violation');
      }
    }
    expect(rejected).toBe(tried);
  });
});

type Perturbation = readonly [string, (op: RunOperation) => boolean, (op: RunOperation) => RunOperation];

const fresh = (op: RunOperation): boolean => op.output !== undefined && !op.output.replayed;
const answerOf = (op: RunOperation) => op.output ?? { status: 0, replayed: false };

/** Edits to one answer that the API forbids, whatever else happened around it. */
const PERTURBATIONS: readonly Perturbation[] = [
  [
    'a continue reports a version past its own turn',
    (op) => op.input.kind === 'continue' && fresh(op) && op.output?.status === 200,
    (op) => ({ ...op, output: { ...answerOf(op), version: (op.output?.version ?? 0) + 2 } }),
  ],
  [
    'a replay reports another version than the answer it replays',
    (op) => op.output?.replayed === true && op.output.status === 200,
    (op) => ({ ...op, output: { ...answerOf(op), version: (op.output?.version ?? 0) + 1 } }),
  ],
  [
    'a version_conflict names the version the request expected',
    (op) => op.input.kind !== 'inspect' && op.output?.code === 'version_conflict',
    (op) => ({
      ...op,
      output: { ...answerOf(op), currentVersion: 'expectedVersion' in op.input ? op.input.expectedVersion : 0 },
    }),
  ],
  [
    'a cancelled run read back as waiting',
    (op) => op.input.kind === 'inspect' && op.output?.lifecycle === 'cancelled',
    (op) => ({ ...op, output: { ...answerOf(op), lifecycle: 'waiting', completion: 'needs_more_evidence' } }),
  ],
];
