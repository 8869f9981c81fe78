import type { Principal } from '../../auth/principal.js';
import {
  MODEL_PROVIDER_LIST_SCHEMA,
  modelProviderView,
  type ModelProviderListView,
} from '../../providers/providerSchemas.js';
import { ownershipFor } from './access.js';
import type { ModelProviderDeps } from './deps.js';

/** GET /api/v1/model-providers: the owner's registrations, newest first (the first is the one runs use). */
export const listModelProviders = async (
  deps: ModelProviderDeps,
  principal: Principal,
): Promise<ModelProviderListView> => {
  const { ownerHash } = ownershipFor(deps, principal, 'model_provider.list');
  const records = await deps.store.read.modelProviders.listByOwner(ownerHash);
  return { schema: MODEL_PROVIDER_LIST_SCHEMA, providers: records.map(modelProviderView) };
};
