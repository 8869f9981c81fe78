import { ReadAgentAssetRequestSchema } from '../../api/agentTaskSchemas.js';
import type { Principal } from '../../auth/principal.js';
import type { RunServiceDeps, ServiceResult } from '../runs/deps.js';
import { acceptAgentRequest, ownedCallOf } from './liveCall.js';

/** ATP-23: a declared asset by id, at most 1 MiB per read; a path is not an asset id. */
export const readAgentAsset = async (
  deps: RunServiceDeps,
  principal: Principal,
  body: unknown,
): Promise<ServiceResult> => {
  const { request, owner, calls } = acceptAgentRequest(
    deps,
    principal,
    'agent_task.read_asset',
    ReadAgentAssetRequestSchema,
    body,
  );
  const call = await ownedCallOf(deps, calls, owner, request.ownedRef);
  return { status: 200, replayed: false, body: call.readAsset(request.assetId, request.offset, request.maxBytes) };
};
