import type { Principal } from '../../auth/principal.js';
import type { RunServiceDeps } from '../runs/deps.js';
import { callAgentTool } from './callAgentTool.js';
import { claimAgentCall } from './claimAgentCall.js';
import { completeAgentCall } from './completeAgentCall.js';
import { listAgentCalls } from './listAgentCalls.js';
import { readAgentAsset } from './readAgentAsset.js';
import { releaseAgentCall } from './releaseAgentCall.js';

/** The six agent-task use cases (ATP-14), one file each, behind the `/mcp` and `/mcp/codex` tools. */
export class AgentTaskService {
  constructor(private readonly deps: RunServiceDeps) {}

  list(principal: Principal, body: unknown) {
    return listAgentCalls(this.deps, principal, body);
  }
  claim(principal: Principal, body: unknown) {
    return claimAgentCall(this.deps, principal, body);
  }
  callTool(principal: Principal, body: unknown) {
    return callAgentTool(this.deps, principal, body);
  }
  readAsset(principal: Principal, body: unknown) {
    return readAgentAsset(this.deps, principal, body);
  }
  complete(principal: Principal, body: unknown) {
    return completeAgentCall(this.deps, principal, body);
  }
  release(principal: Principal, body: unknown) {
    return releaseAgentCall(this.deps, principal, body);
  }
}
