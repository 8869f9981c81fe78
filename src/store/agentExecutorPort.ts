/**
 * ATP-31 in the storage port (UnitOfWork.agentExecutors): which credentials executed agent work in
 * a run, as keyed hashes (src/auth/agentExecutor.ts). Recording is an INSERT that does nothing
 * when the pair is known, so every claim and completion may record without reading first.
 */
export interface AgentExecutorRepository {
  record(runId: string, executorHash: string, at: number): Promise<void>;
  /** True when this credential hash executed an agent call of the run. */
  executed(runId: string, executorHash: string): Promise<boolean>;
}
