import { randomBytes } from 'node:crypto';
import { AGENT_TASK_PROVIDER } from '../../domain/agentTask.js';
import type { TurnOutcome } from '../../domain/turn.js';
import type { TurnExecutor, TurnInput } from '../executor.js';
import { LiveAgentCall } from './liveAgentCall.js';

/**
 * The pending agent calls of this process, by call id. A call lives exactly as long as its turn:
 * opened when the turn starts, gone when the turn ends however it ends (completed, abandoned,
 * timed out, cancelled). Nothing else can reach a call: a lost process loses its calls (ATP-37).
 */
export class AgentCalls {
  private readonly live = new Map<string, LiveAgentCall>();
  private readonly waiters = new Set<() => void>();

  open(call: LiveAgentCall): void {
    this.live.set(call.callId, call);
    for (const wake of [...this.waiters]) wake();
  }

  close(callId: string): void {
    this.live.delete(callId);
  }

  get(callId: string): LiveAgentCall | undefined {
    return this.live.get(callId);
  }

  /** The owner's pending calls, oldest first; another owner's calls are never listed. */
  pendingFor(ownerHash: string): LiveAgentCall[] {
    return [...this.live.values()].filter((c) => c.ownerHash === ownerHash);
  }

  /** Long poll: resolves when the owner has a pending call, or after `ms`, or when `signal` aborts. */
  async waitForPending(ownerHash: string, ms: number, signal?: AbortSignal): Promise<LiveAgentCall[]> {
    if (ms <= 0 || this.pendingFor(ownerHash).length > 0) return this.pendingFor(ownerHash);
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const wake = () => {
        if (this.pendingFor(ownerHash).length > 0) done();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(wake);
      signal?.addEventListener('abort', done, { once: true });
    });
    return this.pendingFor(ownerHash);
  }
}

/**
 * The agent-task executor: a turn opens a pending agent call and waits until an external agent
 * completes or abandons it. It proposes nothing itself and never falls back to another executor
 * (ATP-38); the service's signal and deadline bound the wait, and when the turn ends the call and
 * its owner token go with it (ATP-36).
 */
export class AgentTaskExecutor implements TurnExecutor {
  readonly provider = AGENT_TASK_PROVIDER;

  constructor(readonly calls: AgentCalls) {}

  async executeTurn(input: TurnInput): Promise<TurnOutcome> {
    const callId = `call_${randomBytes(16).toString('base64url')}`;
    try {
      return await new Promise<TurnOutcome>((resolve, reject) => {
        const onAbort = () => reject(input.signal.reason);
        if (input.signal.aborted) return onAbort();
        input.signal.addEventListener('abort', onAbort, { once: true });
        const call = new LiveAgentCall(callId, input, (outcome) => {
          input.signal.removeEventListener('abort', onAbort);
          resolve(outcome);
        });
        this.calls.open(call);
      });
    } finally {
      this.calls.close(callId);
    }
  }
}
