import { ReadAgentAssetRequestSchema } from '../../api/agentTaskSchemas.js';
import { agentUseCase, ownedCallOf } from './liveCall.js';

/** ATP-23: a declared asset by id, at most 1 MiB per read; a path is not an asset id. */
export const readAgentAsset = agentUseCase(
  'agent_task.read_asset',
  ReadAgentAssetRequestSchema,
  async ({ deps, request, owner, calls }) => {
    const call = await ownedCallOf(deps, calls, owner, request.ownedRef);
    return { body: call.readAsset(request.assetId, request.offset, request.maxBytes) };
  },
);
