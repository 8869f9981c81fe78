import { ownershipOf, type Ownership, type Principal } from '../../auth/principal.js';
import { HelixError } from '../../domain/errors.js';
import { requireScopes, type ModelProviderOperation } from '../../domain/scopes.js';
import { MODEL_PROVIDER_ID } from '../../providers/providerSchemas.js';
import type { ModelProviderDeps } from './deps.js';

/** Each model-provider operation checks its scope first (RFC 6750 §3.1), then acts as the principal's owner. */
export const ownershipFor = (
  deps: ModelProviderDeps,
  principal: Principal,
  operation: ModelProviderOperation,
): Ownership => {
  requireScopes(principal.scopes, operation);
  return ownershipOf(principal, deps.instanceSecret);
};

/** Another owner's registration is reported exactly like one that does not exist. */
export const providerNotFound = (): HelixError => new HelixError('not_found', {}, 'The model provider was not found.');

/** A malformed id cannot name a registration: it is not found, without asking the store. */
export const requireProviderId = (providerId: string): string => {
  if (!MODEL_PROVIDER_ID.test(providerId)) throw providerNotFound();
  return providerId;
};
