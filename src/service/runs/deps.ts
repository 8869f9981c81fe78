import type { Store } from '../../store/port.js';
import type { TurnExecutor } from '../../solver/executor.js';
import type { AgentTaskExecutor } from '../../solver/agentTask/agentTaskExecutor.js';
import type { CapabilityRegistry } from '../../sources/registry.js';
import type { PolicySource, ScopeAvailability } from './admission.js';
import type { ActiveTurns } from './activeTurns.js';
import type { TurnSlots } from './turnSlots.js';
import type { WorkerLiveness } from './liveness.js';
import type { RunNotifier } from './runNotifier.js';

export { systemClock, type Clock } from '../../domain/clock.js';
import type { Clock } from '../../domain/clock.js';

export interface ServiceConfig {
  /** Per-continuation watchdog, already clamped to 1,000-900,000 ms. */
  readonly turnTimeoutMs: number;
  /** How long completed idempotency receipts are kept (24 h). */
  readonly receiptTtlMs: number;
  /** Which logical data scopes can be admitted here: enabled by configuration, backed by sources. */
  readonly scopes: ScopeAvailability;
  /** Keys the opaque ownership hashes; generated once per installation and kept in the store. */
  readonly instanceSecret: string;
  /** This process's identity for turn leases. */
  readonly workerId: string;
  /** HELIX_ANSWER_MIN_FOCUS_COVERAGE: the answer contract's focus threshold for new runs (default in src/domain/answerContract/contract.ts). */
  readonly answerMinFocusCoverage?: number;
}

export interface RunServiceDeps {
  readonly store: Store;
  readonly executor: TurnExecutor;
  /**
   * Works the turns of runs started with `turn_executor: "agent_task"` (docs/agent-tasks.md); without
   * it such runs cannot be started here.
   */
  readonly agentTasks?: AgentTaskExecutor;
  /** The configured capabilities; turns reach them only through the admitted, recording handle. */
  readonly registry: CapabilityRegistry;
  readonly clock: Clock;
  readonly config: ServiceConfig;
  readonly turns: ActiveTurns;
  /** Concurrent-turn bounds per process and per owner, and the queue for a free slot. */
  readonly slots: TurnSlots;
  readonly liveness: WorkerLiveness;
  readonly policy: PolicySource;
  readonly newId: (prefix: string) => string;
  /** Wakes event waiters and, across replicas, the process running a cancelled turn. */
  readonly notifier: RunNotifier;
  /** Reports an executor failure (already reduced to a sanitized failure code for the run). */
  readonly onExecutorError?: (err: unknown, runId: string) => void;
}

/** The processing lease is at least two minutes and otherwise one minute past the turn timeout. */
export const processingLeaseMs = (config: ServiceConfig): number => Math.max(120_000, config.turnTimeoutMs + 60_000);
