import type { Principal } from '../../auth/principal.js';
import { ownershipFor, providerNotFound, requireProviderId } from './access.js';
import type { ModelProviderDeps } from './deps.js';

/** DELETE /api/v1/model-providers/{provider_id}: the row and its sealed key go together. */
export const deleteModelProvider = async (
  deps: ModelProviderDeps,
  principal: Principal,
  providerId: string,
): Promise<void> => {
  const { ownerHash } = ownershipFor(deps, principal, 'model_provider.delete');
  const id = requireProviderId(providerId);
  const deleted = await deps.store.transaction((uow) => uow.modelProviders.deleteForOwner(ownerHash, id));
  if (!deleted) throw providerNotFound();
};
