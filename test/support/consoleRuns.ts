import { emptyOutcome, type TurnOutcome } from '../../src/domain/turn.js';
import type { TurnInput } from '../../src/solver/executor.js';
import { ScriptedExecutor, scriptedArtifact, scriptedCandidate } from '../../src/solver/scriptedExecutor.js';
import { createAccount } from '../../src/service/accounts/createAccount.js';
import { accountDeps } from './accounts.js';
import { LIBRARY, LIBRARY_SCOPES } from './groundedTurn.js';
import { api, idemKey, startTestHelix, type TestHelix } from './harness.js';
import type { StoreFlavour } from './stores.js';

/** The sentence the answer quotes from the first passage; the page must mark it there. */
export const QUOTED = 'The flux capacitor stores charge in a ring.';
export const PASSAGE = `Preface <img src=x onerror="window.pwned=1"> text. ${QUOTED} Unrelated closing remark.`;
export const ANSWER = `${QUOTED} [1]`;
export const QUESTION = { question_id: 'pick_era', prompt: 'Which era should the search cover?' };
/**
 * An objective that asks its question first; answering it completes the run. Like every objective
 * here, it is one question whose focus ANSWER speaks to: an answer that does not address its
 * objective, or answers only one part of it, is not authorized (src/domain/objectiveRelevance.ts,
 * src/domain/answerContract/).
 */
export const ASKING = 'Find the asking run about the charge ring, for which era?';

/** ATP-28: an objective that asks a person to confirm first; only `is_confirmed: true` completes it. */
export const CONFIRMING = 'Find the confirming run about the charge ring, searching the archive too';
export const CONFIRMATION = {
  question_id: 'go_ahead',
  prompt: 'Search the paid archive as well?',
  kind: 'confirmation' as const,
};

export const CONTRADICTION = {
  contradiction_id: 'c1',
  description: 'Passage <i>two</i> disagrees on the ring',
  refs: [],
};

/**
 * One deterministic turn per objective: an asking run asks (and notes a contradiction) until
 * answered; every other turn finds two passages and completes with an answer quoting the first.
 */
const turnFor = async (input: TurnInput): Promise<TurnOutcome> => {
  if (input.objective === ASKING && input.answers.length === 0)
    return emptyOutcome({ questions: [QUESTION], contradictions: [CONTRADICTION] });
  const confirmed = input.answers.some((a) => (a.value as { is_confirmed?: unknown })?.is_confirmed === true);
  if (input.objective === CONFIRMING && !confirmed) return emptyOutcome({ questions: [CONFIRMATION] });
  const a = scriptedArtifact(PASSAGE, LIBRARY);
  const b = scriptedArtifact('A second passage about <b>rings</b>.', LIBRARY);
  return emptyOutcome({
    artifacts: [a, b],
    satisfiedFamilies: [LIBRARY.family],
    terminalCandidates: [scriptedCandidate(ANSWER, [a.ref])],
    supportedClaims: [{ claim: QUOTED, refs: [a.ref] }],
  });
};

export interface ConsoleRuns {
  readonly h: TestHelix;
  /** The signed-in owner's account and one of its `hlx_` keys. */
  readonly owner: string;
  readonly ownerKey: string;
  /** Another account with its own key and run. */
  readonly other: string;
  readonly otherKey: string;
  start(token: string, objective: string): Promise<string>;
  /** One turn (an instruction), as the agent would continue its run. */
  turn(token: string, runId: string): Promise<void>;
}

/** A server whose turns are scripted (turnFor), two accounts with a run-scoped key each. */
export const startConsoleRuns = async (flavour: StoreFlavour): Promise<ConsoleRuns> => {
  const h = await startTestHelix(flavour, {
    executor: new ScriptedExecutor([], turnFor),
    // These tests are about the console, not about answers: the answer contract's focus threshold
    // is off (HELIX_ANSWER_MIN_FOCUS_COVERAGE=0), its other checks stay.
    env: { HELIX_AGENT_DATABASE_SCOPES: 'research_library', HELIX_ANSWER_MIN_FOCUS_COVERAGE: '0' },
  });
  const deps = await accountDeps(h.testStore.store);
  const owner = (await createAccount(deps, { displayName: 'Olive' })).accountId;
  const other = (await createAccount(deps, { displayName: 'Mallory' })).accountId;
  const start = async (token: string, objective: string): Promise<string> => {
    const body = { objective, database_scope: ['research_library'] };
    const res = await api(h.url, 'POST', '/api/v1/agent-runs', { token, idempotencyKey: idemKey(), body });
    if (res.status !== 201) throw new Error(`start: ${res.status} ${res.text}`);
    return res.body.run_id as string;
  };
  const turn = async (token: string, runId: string): Promise<void> => {
    const version = (await api(h.url, 'GET', `/api/v1/agent-runs/${runId}`, { token })).body.version as number;
    const body = { expected_version: version, instruction: 'next' };
    const res = await api(h.url, 'POST', `/api/v1/agent-runs/${runId}/continue`, {
      token,
      idempotencyKey: idemKey(),
      body,
    });
    if (res.status !== 200) throw new Error(`continue: ${res.status} ${res.text}`);
  };
  return {
    h,
    owner,
    ownerKey: await h.key(LIBRARY_SCOPES, 'tenant-a', owner),
    other,
    otherKey: await h.key(LIBRARY_SCOPES, 'tenant-a', other),
    start,
    turn,
  };
};
