import type { Principal } from '../../auth/principal.js';
import { AgentTaskService } from '../agentTasks/agentTaskService.js';
import { answerRun } from './answerRun.js';
import { cancelRun } from './cancelRun.js';
import { continueRun } from './continueRun.js';
import type { RunServiceDeps } from './deps.js';
import { fetchEvidence } from './fetchEvidence.js';
import { inspectRun } from './inspectRun.js';
import { listEvents } from './listEvents.js';
import { listRuns } from './listRuns.js';
import { recoverInterruptedRuns } from './recovery.js';
import { startRun } from './startRun.js';
import { openEventStream } from './streamEvents.js';

/** The one service both facades (REST and MCP) call. Each method is a use case in its own file. */
export class RunService {
  /** The agent-task tools' use cases (docs/agent-tasks.md): they work the turns of this service's runs. */
  readonly agentTasks: AgentTaskService;

  constructor(readonly deps: RunServiceDeps) {
    this.agentTasks = new AgentTaskService(deps);
  }

  start(principal: Principal, idempotencyKey: string | undefined, body: unknown) {
    return startRun(this.deps, principal, idempotencyKey, body);
  }
  continue(principal: Principal, runId: string, idempotencyKey: string | undefined, body: unknown) {
    return continueRun(this.deps, principal, runId, idempotencyKey, body);
  }
  answer(principal: Principal, runId: string, idempotencyKey: string | undefined, body: unknown) {
    return answerRun(this.deps, principal, runId, idempotencyKey, body);
  }
  cancel(principal: Principal, runId: string, idempotencyKey: string | undefined, body: unknown) {
    return cancelRun(this.deps, principal, runId, idempotencyKey, body);
  }
  list(principal: Principal, query: unknown) {
    return listRuns(this.deps, principal, query);
  }
  inspect(principal: Principal, runId: string) {
    return inspectRun(this.deps, principal, runId);
  }
  events(principal: Principal, runId: string, query: unknown) {
    return listEvents(this.deps, principal, runId, query);
  }
  eventStream(principal: Principal, runId: string, query: unknown, lastEventId: string | undefined) {
    return openEventStream(this.deps, principal, runId, query, lastEventId);
  }
  evidence(principal: Principal, runId: string) {
    return fetchEvidence(this.deps, principal, runId);
  }
  recoverInterrupted() {
    return recoverInterruptedRuns(this.deps);
  }
}
