import { performance } from 'node:perf_hooks';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  agentTaskCalls,
  type CallAnswer,
  type CallInput,
  type CallOperation,
  describeCallOperation,
} from '../scripts/history/agentTaskCalls.js';
import { recordAgentTasks } from '../scripts/history/agentTaskScenario.js';
import { TURN_CLIENT } from '../scripts/history/agentTaskWorkload.js';
import { checkHistory, type ObjectResult } from '../scripts/history/search.js';
import { agentTool, pendingCallOf } from './support/agentTaskClient.js';
import { ALL_RUN_SCOPES, api, idemKey, startTestHelix, type TestHelix } from './support/harness.js';
import { connectMcp } from './support/mcpClient.js';
import { storeFlavours } from './support/stores.js';

const CALL = 'run_handmade';
const NO_ANSWER = Number.POSITIVE_INFINITY;

/** A hand-made history: [client, input, output (undefined: no answer), invokedAt, returnedAt]. */
type Row = readonly [number, CallInput, CallAnswer | undefined, number, number];
const history = (rows: readonly Row[]): CallOperation[] =>
  rows.map(([client, input, output, invokedAt, returnedAt], id) => ({
    id,
    object: CALL,
    client,
    input,
    output,
    invokedAt,
    returnedAt,
  }));
const verdictOf = (rows: readonly Row[]) => {
  const [result] = checkHistory(agentTaskCalls(), history(rows));
  return result?.verdict;
};

const claim = (claimId: string): CallInput => ({ kind: 'claim', claimId });
const complete = (tokenTag: string, question?: string): CallInput => ({ kind: 'complete', tokenTag, question });
const release = (tokenTag: string, abandon = false): CallInput => ({ kind: 'release', tokenTag, abandon });
const LIST: CallInput = { kind: 'list' };
const TURN: CallInput = { kind: 'turn' };
const won = (tokenTag: string, recovered = false): CallAnswer => ({ tokenTag, recovered });
const asked = (question: string): CallAnswer => ({ outcome: `question:${question}` });
const refused = (code: string): CallAnswer => ({ code });

describe('the agent-task call model rejects what the protocol forbids', () => {
  it('ATP-17: two claims of one call under different claimIds cannot both win', () => {
    expect(
      verdictOf([
        [1, claim('a'), won('tok1'), 0, 10],
        [2, claim('b'), won('tok2'), 1, 9],
      ]),
    ).toBe('violation');
  });

  it('ATP-35: a completion is never applied twice (two successes for different results)', () => {
    expect(
      verdictOf([
        [1, claim('a'), won('tok1'), 0, 5],
        [1, complete('tok1', 'q_one'), asked('q_one'), 10, 30],
        [1, complete('tok1', 'q_two'), asked('q_two'), 11, 31],
      ]),
    ).toBe('violation');
    // Nor replayed after the call ended: the retry is agent_call_not_found, not another success.
    expect(
      verdictOf([
        [1, claim('a'), won('tok1'), 0, 5],
        [1, complete('tok1', 'q_one'), asked('q_one'), 10, 20],
        [1, complete('tok1', 'q_one'), asked('q_one'), 25, 30],
      ]),
    ).toBe('violation');
  });

  it("ATP-17: the losing claimer's completion is not accepted", () => {
    expect(
      verdictOf([
        [1, claim('a'), won('tok1'), 0, 5],
        [2, claim('b'), refused('agent_call_claimed'), 6, 8],
        [2, complete('tok2', 'q_loser'), asked('q_loser'), 9, 20],
      ]),
    ).toBe('violation');
    // Nor with the token it held before it released the call and lost the next claim.
    expect(
      verdictOf([
        [2, claim('b'), won('tok2'), 0, 5],
        [2, release('tok2'), { abandoned: false }, 6, 8],
        [1, claim('a'), won('tok1'), 9, 12],
        [2, claim('b'), refused('agent_call_claimed'), 13, 15],
        [2, complete('tok2', 'q_stale'), asked('q_stale'), 16, 25],
      ]),
    ).toBe('violation');
  });

  it('ATP-17: after a reconnect the old owner token owns nothing', () => {
    expect(
      verdictOf([
        [1, claim('a'), won('tok1'), 0, 5],
        [1, claim('a'), won('tok2', true), 6, 8],
        [1, complete('tok1', 'q_old'), asked('q_old'), 9, 20],
      ]),
    ).toBe('violation');
  });

  it("ATP-16: the list's claimed flag and the turn's answer agree with the call", () => {
    expect(
      verdictOf([
        [1, claim('a'), won('tok1'), 0, 5],
        [2, LIST, { listed: true, claimed: false }, 6, 8],
      ]),
    ).toBe('violation');
    expect(
      verdictOf([
        [TURN_CLIENT, TURN, asked('q_two'), -10, 40],
        [1, claim('a'), won('tok1'), 0, 5],
        [1, complete('tok1', 'q_one'), asked('q_one'), 10, 30],
      ]),
    ).toBe('violation');
  });
});

describe('the agent-task call model accepts what the protocol allows', () => {
  it('ATP-17, ATP-35: overlapping claims, a recovered claim, a release, a lost answer and one completion', () => {
    expect(
      verdictOf([
        [TURN_CLIENT, TURN, asked('q_win'), -10, 60],
        // Client 2 asked first, but client 1's overlapping claim took effect first.
        [2, claim('b'), refused('agent_call_claimed'), 0, 12],
        [1, claim('a'), won('tok1'), 1, 10],
        [3, LIST, { listed: true, claimed: true }, 2, 11],
        // Client 3's claim got no answer: it may have happened after client 1's release, or not.
        [3, claim('c'), undefined, 3, NO_ANSWER],
        [1, release('tok1'), { abandoned: false }, 13, 15],
        [2, claim('b'), won('tok2'), 16, 18],
        [2, claim('b'), won('tok3', true), 19, 21],
        [2, complete('tok2', 'q_stale'), refused('agent_call_not_found'), 22, 24],
        [2, complete('tok3'), refused('invalid_request'), 25, 27],
        [2, complete('tok3', 'q_win'), asked('q_win'), 28, 50],
        // Overlapping the winning completion: the retry is refused, a read sees the call either way.
        [2, complete('tok3', 'q_again'), refused('agent_call_not_found'), 30, 52],
        [1, LIST, { listed: false }, 29, 40],
        [1, claim('a'), refused('agent_call_not_found'), 53, 55],
      ]),
    ).toBe('linearizable');
  });

  it('an abandoned call ends: the turn answers abandoned, a later claim finds nothing', () => {
    expect(
      verdictOf([
        [TURN_CLIENT, TURN, { outcome: 'abandoned' }, -10, 30],
        [1, claim('a'), won('tok1'), 0, 5],
        [2, complete('tok1', 'q_late'), refused('agent_call_not_found'), 4, 20],
        [1, release('tok1', true), { abandoned: true }, 6, 10],
        [2, claim('b'), refused('agent_call_not_found'), 11, 12],
      ]),
    ).toBe('linearizable');
  });
});

/** What a recorded history must show to count as a real race, not a quiet sequence. */
const MIN_OPERATIONS = 150;
const WORKLOAD_MS = 6_000;

describe.each(storeFlavours())('agent-task calls over real MCP are linearizable on $name', (flavour) => {
  it('ATP-17, ATP-35: racing agents claim, complete, retry, release and read; every call checks', {
    timeout: 40_000,
  }, async () => {
    const seed = Number(process.env.HELIX_HISTORY_SEED ?? Date.now() % 2 ** 31);
    const { history: recorded, calls } = await recordAgentTasks(flavour, {
      agents: 4,
      slots: 3,
      durationMs: WORKLOAD_MS,
      seed,
    });
    const started = performance.now();
    const results = checkHistory(agentTaskCalls(), recorded, { budgetMs: 5_000 });
    const checkMs = performance.now() - started;
    const refusedClaims = recorded.filter((o) => o.input.kind === 'claim' && o.output?.code === 'agent_call_claimed');
    const summary = `${flavour.name} seed=${seed}: ${recorded.length} operations on ${calls} calls, ${refusedClaims.length} refused claims, checked in ${checkMs.toFixed(0)} ms`;
    console.info(summary);
    expect(results.filter((r) => r.verdict !== 'linearizable').map(explain), summary).toEqual([]);
    expect(recorded.length).toBeGreaterThanOrEqual(MIN_OPERATIONS);
    expect(refusedClaims.length).toBeGreaterThan(0);
    expect(recorded.filter((o) => o.input.kind === 'complete' && o.output?.code === undefined).length).toBeGreaterThan(
      0,
    );
    // The model is not vacuous on real data: one refused claim turned into a win is a violation.
    const [lost] = refusedClaims;
    if (lost === undefined) throw new Error('no refused claim');
    const forged = recorded.map((o) =>
      o.id === lost.id ? { ...o, output: { tokenTag: 'forged', recovered: false } } : o,
    );
    const forgedCall = checkHistory(agentTaskCalls(), forged).find((r) => r.object === lost.object);
    expect(forgedCall?.verdict).toBe('violation');
  });
});

/** A failed object, readable in the assertion: the verdict, the explained prefix and the stuck operation. */
const explain = (result: ObjectResult<CallInput, CallAnswer>): string => {
  const lines = [`${result.object}: ${result.verdict} after ${result.steps} steps`];
  const { explanation } = result;
  if (explanation !== undefined) {
    for (const { op } of explanation.placed) lines.push(`  placed ${describeCallOperation(op)}`);
    lines.push(
      `  stuck  ${describeCallOperation(explanation.stuck)}`,
      `  states ${explanation.statesThen.join(' / ')}`,
    );
  }
  return lines.join('\n');
};

const RACE_ENV = { HELIX_MCP_IP_RATE_LIMIT: '0', HELIX_MCP_PRINCIPAL_RATE_LIMIT: '0' };
const asking = (question: string) => ({ text: '', questions: [{ question_id: question, prompt: 'Which one?' }] });
const succeeded = (answers: readonly { isError: boolean }[]): number => answers.filter((a) => !a.isError).length;

/**
 * The one-token races issue 36's model found on real PostgreSQL: the owner token's holder sends
 * its completion together with a second request under the same token or claimId. completeAgentCall
 * awaits the durable executor record (ATP-31) between its ownership check and its act; a second
 * request landed in that gap and both were answered as taken effect. LiveAgentCall now checks the
 * token at the instant it acts and refuses an ended call. At most one of the two takes effect.
 */
describe.each(storeFlavours())('one owner token, two requests at once, on $name', (flavour) => {
  let h: TestHelix | undefined;
  let agent: Client | undefined;
  let token: string | undefined;
  afterEach(async () => {
    await agent?.close();
    await h?.close();
    agent = undefined;
    token = undefined;
    h = undefined;
  });

  /** A claimed call: its turn's continue in flight, and the claim's owned reference. */
  const claimedCall = async () => {
    h ??= await startTestHelix(flavour, { env: RACE_ENV });
    token ??= await h.key(ALL_RUN_SCOPES);
    agent ??= await connectMcp(h.url, token);
    const started = await api(h.url, 'POST', '/api/v1/agent-runs', {
      token,
      idempotencyKey: idemKey(),
      body: { objective: 'Which completion takes effect?', turn_executor: 'agent_task' },
    });
    const runId = started.body.run_id as string;
    const turn = api(h.url, 'POST', `/api/v1/agent-runs/${runId}/continue`, {
      token,
      idempotencyKey: idemKey(),
      body: { expected_version: 1, instruction: 'Race.' },
    });
    const callId = await pendingCallOf(agent, runId);
    const claimed = await agentTool(agent, 'claim', { runId, callId, claimId: 'holder' });
    expect(claimed.isError).toBe(false);
    return { client: agent, runId, callId, ownedRef: claimed.body.ownedRef as unknown, turn };
  };

  it('ATP-35: of two different completions sent at once, one is refused', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const { client, ownedRef, turn } = await claimedCall();
      const answers = await Promise.all(
        ['q_first', 'q_second'].map((q) => agentTool(client, 'complete', { ownedRef, result: asking(q) })),
      );
      await turn;
      expect(succeeded(answers)).toBe(1);
    }
  });

  it('a completion and an abandon sent at once: one is refused', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const { client, ownedRef, turn } = await claimedCall();
      const answers = await Promise.all([
        agentTool(client, 'complete', { ownedRef, result: asking('q_done') }),
        agentTool(client, 'release', { ownedRef, abandon: true }),
      ]);
      await turn;
      expect(succeeded(answers)).toBe(1);
    }
  });

  it('ATP-17: a completion with the old token and a reconnecting claim sent at once: one is refused', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const { client, runId, callId, ownedRef, turn } = await claimedCall();
      const answers = await Promise.all([
        agentTool(client, 'complete', { ownedRef, result: asking('q_old_token') }),
        agentTool(client, 'claim', { runId, callId, claimId: 'holder' }),
      ]);
      const [completion, reclaim] = answers;
      // The reconnect came first: the old token owns nothing and the call waits for the new one.
      if (completion?.isError === true && reclaim?.isError === false) {
        const finish = await agentTool(client, 'complete', {
          ownedRef: reclaim.body.ownedRef,
          result: asking('q_new'),
        });
        expect(finish.isError).toBe(false);
      }
      await turn;
      expect(succeeded(answers)).toBe(1);
    }
  });
});
