import { createHash } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type CallAnswer, type CallInput, type CallOperation, questionOutcome, ABANDONED } from './agentTaskCalls.js';
import { exchange, type HttpAnswer } from './http.js';
import { type Random, sleep } from './random.js';
import { Recorder, type Outcome } from './recorder.js';

/** A Helix with agent-task runs, a key of the runs' owner, and one official SDK MCP client per agent. */
export interface AgentTaskTarget {
  readonly url: string;
  readonly token: string;
  readonly agents: readonly Client[];
}

export interface AgentTaskWorkloadOptions {
  /** Calls in play at once; each is one run's one turn, and an ended one is replaced by a new run. */
  readonly slots: number;
  /** No new call opens after this long; calls still open are worked to their end. */
  readonly durationMs: number;
  /** A tool call unanswered after this long counts as "may or may not have happened". */
  readonly timeoutMs: number;
  /** Past this age a call's holder completes it instead of releasing, so every call ends. */
  readonly settleAfterMs: number;
  readonly random: Random;
}

export interface AgentTaskWorkloadResult {
  readonly history: CallOperation[];
  readonly calls: number;
}

const RUNS = '/api/v1/agent-runs';
/** The client number the history gives the continue that opens each call. */
export const TURN_CLIENT = -1;

/**
 * Concurrent agents race for each pending call of agent-task runs over real MCP: every agent
 * claims it under its own claimId, the losers retry while the call lives; the holder completes
 * (sometimes first with an invalid result, sometimes retrying the completion afterwards, sometimes
 * sending two completions at once), releases (and later tries its stale token), abandons (rarely)
 * or reconnects (claims again with its claimId and tries the old token). Agents list the run's calls
 * throughout. The continue that opened each call is recorded too: its answer must be the run the
 * winning completion made.
 */
export const agentTaskWorkload = async (
  target: AgentTaskTarget,
  options: AgentTaskWorkloadOptions,
): Promise<AgentTaskWorkloadResult> => {
  const driver = new AgentTaskDriver(target, options);
  const deadline = Date.now() + options.durationMs;
  await Promise.all(Array.from({ length: options.slots }, () => driver.slot(deadline)));
  return { history: driver.recorder.history(), calls: driver.calls };
};

/** The call one round works: its run, its id, and whether its turn's continue has answered. */
interface Round {
  readonly runId: string;
  readonly callId: string;
  readonly openedAt: number;
  ended: boolean;
}

class AgentTaskDriver {
  readonly recorder = new Recorder<CallInput, CallAnswer>();
  calls = 0;
  private readonly random: Random;
  /** Owner tokens by short hash: the history names a token only by its hash. */
  private readonly tokens = new Map<string, string>();

  constructor(
    private readonly target: AgentTaskTarget,
    private readonly options: AgentTaskWorkloadOptions,
  ) {
    this.random = options.random;
  }

  async slot(deadline: number): Promise<void> {
    while (Date.now() < deadline) await this.round();
  }

  /** One run, one turn: the continue opens the call, every agent works it until the turn ends. */
  private async round(): Promise<void> {
    const runId = await this.startRun();
    const turn = this.recorder.record(runId, TURN_CLIENT, { kind: 'turn' }, () => this.continueRun(runId));
    const callId = await this.pendingCall(runId);
    this.calls++;
    const round: Round = { runId, callId, openedAt: Date.now(), ended: false };
    const ended = turn.then(() => {
      round.ended = true;
    });
    await Promise.all(this.target.agents.map((_, agent) => this.agent(agent, round)));
    await ended;
  }

  /** One agent on one call: claim under its claimId until it holds the call or the call is gone. */
  private async agent(agent: number, round: Round): Promise<void> {
    const claimId = `agent${agent}-${this.random.tag()}`;
    for (let attempt = 0; attempt < 200 && !round.ended; attempt++) {
      await sleep(this.random.below(attempt === 0 ? 5 : 30));
      if (this.random.chance(0.3)) await this.tool(agent, round, { kind: 'list' });
      const claimed = await this.tool(agent, round, { kind: 'claim', claimId });
      if (claimed.kind !== 'answer') continue; // unknown: the same claimId recovers it next time
      if (claimed.output.code === 'agent_call_not_found') return;
      const { tokenTag } = claimed.output;
      if (claimed.output.code !== undefined || tokenTag === undefined) continue;
      if (await this.work(agent, round, claimId, tokenTag)) return;
      await sleep(20 + this.random.below(60)); // after a release, give the others a chance
    }
  }

  /** The holder's move; true when it ended the call (or the call is gone). */
  private async work(agent: number, round: Round, claimId: string, tokenTag: string): Promise<boolean> {
    const { random } = this;
    const p = random.next();
    const settling = Date.now() - round.openedAt > this.options.settleAfterMs;
    if (p < 0.12) return this.reconnect(agent, round, claimId, tokenTag);
    if (p < 0.32 && !settling) {
      await this.tool(agent, round, { kind: 'release', tokenTag, abandon: false });
      if (random.chance(0.5)) {
        await sleep(random.below(40));
        await this.complete(agent, round, tokenTag);
      }
      return false;
    }
    if (p < 0.36) return this.ends(await this.tool(agent, round, { kind: 'release', tokenTag, abandon: true }));
    if (p < 0.46) await this.tool(agent, round, { kind: 'complete', tokenTag, question: undefined });
    if (p > 0.82) {
      const both = await Promise.all([this.complete(agent, round, tokenTag), this.complete(agent, round, tokenTag)]);
      return both.some((o) => this.ends(o));
    }
    const done = await this.complete(agent, round, tokenTag);
    if (random.chance(0.3)) await this.complete(agent, round, tokenTag); // a retry: refused, never applied
    return this.ends(done);
  }

  /** A reconnect: the same claimId again takes a fresh token; the old one must own nothing. */
  private async reconnect(agent: number, round: Round, claimId: string, stale: string): Promise<boolean> {
    const again = await this.tool(agent, round, { kind: 'claim', claimId });
    await this.complete(agent, round, stale);
    if (again.kind !== 'answer' || again.output.tokenTag === undefined) return false;
    return this.ends(await this.complete(agent, round, again.output.tokenTag));
  }

  private complete(agent: number, round: Round, tokenTag: string): Promise<Outcome<CallAnswer>> {
    return this.tool(agent, round, { kind: 'complete', tokenTag, question: `q_${this.random.tag()}` });
  }

  private ends(outcome: Outcome<CallAnswer>): boolean {
    return (
      outcome.kind === 'answer' && (outcome.output.code === undefined || outcome.output.code === 'agent_call_not_found')
    );
  }

  private tool(agent: number, round: Round, input: CallInput): Promise<Outcome<CallAnswer>> {
    const client = this.target.agents[agent];
    if (client === undefined) throw new Error(`no agent ${agent}`);
    return this.recorder.record(round.runId, agent, input, async () => {
      try {
        const result = await client.callTool(
          { name: `helix_agent_task_${input.kind}`, arguments: this.argumentsFor(round, input) },
          undefined,
          { timeout: this.options.timeoutMs },
        );
        return this.toOutcome(round, input, result.isError === true, result.structuredContent);
      } catch (err) {
        return { kind: 'unknown', answered: false, reason: (err as Error).name };
      }
    });
  }

  private argumentsFor(round: Round, input: CallInput): Record<string, unknown> {
    const { runId, callId } = round;
    const ownedRef = (tokenTag: string) => ({ runId, callId, ownerToken: this.tokens.get(tokenTag) ?? '' });
    switch (input.kind) {
      case 'list':
        return { runId };
      case 'claim':
        return { runId, callId, claimId: input.claimId };
      case 'complete':
        return {
          ownedRef: ownedRef(input.tokenTag),
          // An invalid result: a number for text, which the output parser refuses.
          result: input.question === undefined ? { text: 42 } : { text: '', questions: [questionFor(input.question)] },
        };
      case 'release':
        return { ownedRef: ownedRef(input.tokenTag), abandon: input.abandon };
      case 'turn':
        throw new Error('a turn is a REST continue, not a tool');
    }
  }

  private toOutcome(round: Round, input: CallInput, isError: boolean, content: unknown): Outcome<CallAnswer> {
    const body = (content ?? {}) as Record<string, unknown>;
    if (isError) {
      if (typeof body.status === 'number' && body.status >= 500)
        return { kind: 'unknown', answered: true, reason: `status ${body.status}` };
      return { kind: 'answer', output: { code: typeof body.code === 'string' ? body.code : 'unknown_error' } };
    }
    switch (input.kind) {
      case 'claim': {
        const ref = body.ownedRef as { ownerToken?: unknown } | undefined;
        const token = typeof ref?.ownerToken === 'string' ? ref.ownerToken : '';
        const tokenTag = tagOf(token);
        this.tokens.set(tokenTag, token);
        return { kind: 'answer', output: { tokenTag, recovered: body.recovered === true } };
      }
      case 'complete':
        return { kind: 'answer', output: { outcome: turnOutcome(body.run) } };
      case 'release':
        return { kind: 'answer', output: { abandoned: body.abandoned === true } };
      default: {
        const calls = (body.calls ?? []) as { callId?: unknown; claimed?: unknown }[];
        const listed = calls.find((c) => c.callId === round.callId);
        return { kind: 'answer', output: { listed: listed !== undefined, claimed: listed?.claimed === true } };
      }
    }
  }

  private async startRun(): Promise<string> {
    for (let attempt = 0; attempt < 40; attempt++) {
      const answer = await this.rest(RUNS, {
        objective: 'Which agent takes this call?',
        turn_executor: 'agent_task',
      });
      const runId = answer.kind === 'response' ? (answer.body as { run_id?: unknown }).run_id : undefined;
      if (answer.kind === 'response' && answer.status === 201 && typeof runId === 'string') return runId;
      await sleep(100);
    }
    throw new Error('could not start an agent-task run in 40 attempts');
  }

  /** The continue that opens the turn's call; it answers when the turn ends. */
  private async continueRun(runId: string): Promise<Outcome<CallAnswer>> {
    const answer = await this.rest(`${RUNS}/${runId}/continue`, { expected_version: 1, instruction: 'Claim me.' });
    if (answer.kind === 'not_sent') return answer;
    if (answer.kind === 'lost') return { kind: 'unknown', answered: false, reason: answer.reason };
    if (answer.status >= 500) return { kind: 'unknown', answered: true, reason: `HTTP ${answer.status}` };
    const body = (answer.body ?? {}) as Record<string, unknown>;
    if (answer.status !== 200) return { kind: 'answer', output: { code: String(body.code) } };
    return { kind: 'answer', output: { outcome: turnOutcome(body) } };
  }

  private rest(path: string, body: unknown): Promise<HttpAnswer> {
    return exchange(this.target.url, {
      method: 'POST',
      path,
      token: this.target.token,
      idempotencyKey: `history-${this.random.tag()}${this.random.tag()}`,
      body,
      timeoutMs: 60_000,
    });
  }

  /** Long-polls the agents' list until the run's call is open (not recorded: it may precede the call). */
  private async pendingCall(runId: string): Promise<string> {
    const client = this.target.agents[0];
    if (client === undefined) throw new Error('no agents');
    // The long poll returns as soon as any call of the owner is pending, so it also sleeps.
    for (const until = Date.now() + 20_000; Date.now() < until; await sleep(10)) {
      const result = await client.callTool({ name: 'helix_agent_task_list', arguments: { runId, waitSeconds: 2 } });
      const calls = ((result.structuredContent ?? {}) as { calls?: { callId?: unknown }[] }).calls ?? [];
      const callId = calls[0]?.callId;
      if (typeof callId === 'string') return callId;
    }
    throw new Error(`no pending agent call for ${runId}`);
  }
}

/** A result that asks one question: the run then shows it, which names the completion that took effect. */
const questionFor = (question: string) => ({ question_id: question, prompt: `Which agent asked ${question}?` });

/** How a run view ended its turn: the question it waits on, the abandonment, or its statuses. */
const turnOutcome = (view: unknown): string => {
  const run = (view ?? {}) as {
    pending_questions?: { question_id?: unknown }[];
    latest_result?: { failure_code?: unknown } | null;
    lifecycle_status?: unknown;
    completion_status?: unknown;
  };
  const question = run.pending_questions?.[0]?.question_id;
  if (typeof question === 'string') return questionOutcome(question);
  if (run.latest_result?.failure_code === 'agent_task_abandoned') return ABANDONED;
  return `${String(run.lifecycle_status)}/${String(run.completion_status)}`;
};

/** A token's short hash: enough to tell tokens apart in a history, useless to act with. */
const tagOf = (token: string): string => createHash('sha256').update(token).digest('hex').slice(0, 12);
