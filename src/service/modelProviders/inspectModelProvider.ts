import type { Principal } from '../../auth/principal.js';
import { modelProviderView, type ModelProviderView } from '../../providers/providerSchemas.js';
import { ownershipFor, providerNotFound, requireProviderId } from './access.js';
import type { ModelProviderDeps } from './deps.js';

/** GET /api/v1/model-providers/{provider_id}: one of the owner's registrations, never its key. */
export const inspectModelProvider = async (
  deps: ModelProviderDeps,
  principal: Principal,
  providerId: string,
): Promise<ModelProviderView> => {
  const { ownerHash } = ownershipFor(deps, principal, 'model_provider.inspect');
  const record = await deps.store.read.modelProviders.getForOwner(ownerHash, requireProviderId(providerId));
  if (record === undefined) throw providerNotFound();
  return modelProviderView(record);
};
