import { randomBytes } from 'node:crypto';
import type { Principal } from '../../auth/principal.js';
import { hasFeature } from '../../domain/accountPolicy.js';
import { HelixError } from '../../domain/errors.js';
import { checkOwnerDestination } from '../../net/ownerDestination.js';
import { sealProviderKey } from '../../providers/providerKeySeal.js';
import {
  modelProviderView,
  RegisterModelProviderSchema,
  type ModelProviderView,
} from '../../providers/providerSchemas.js';
import type { ModelProviderRecord } from '../../store/port.js';
import { parseInput } from '../validate.js';
import { ownershipFor } from './access.js';
import type { ModelProviderDeps } from './deps.js';

const newProviderId = (): string => `mp_${randomBytes(16).toString('base64url')}`;

/**
 * POST /api/v1/model-providers: scope, then the account's `model_providers` feature, then the
 * request, its destination and its key. The key is sealed to the row it belongs to; the row and
 * the owner's subject registration commit together.
 */
export const registerModelProvider = async (
  deps: ModelProviderDeps,
  principal: Principal,
  body: unknown,
): Promise<ModelProviderView> => {
  const { ownerHash, subjectKey } = ownershipFor(deps, principal, 'model_provider.register');
  if (!hasFeature(await deps.policies.forPrincipal(principal), 'model_providers')) {
    throw new HelixError('feature_not_enabled', { feature: 'model_providers' });
  }
  const request = parseInput(RegisterModelProviderSchema, body);
  // Checked again before every request (src/providers/ownerTransport.ts); this is the early, clear refusal.
  const baseUrl = await checkOwnerDestination(request.base_url, deps.baseUrlPolicy, deps.resolveHost);
  if (!baseUrl.ok) {
    throw new HelixError(baseUrl.refusal === 'shape' ? 'invalid_request' : 'provider_destination_refused', {
      issues: [{ path: 'base_url', message: baseUrl.reason }],
    });
  }
  if (request.api_key !== undefined && deps.secretBox === undefined)
    throw new HelixError('provider_secrets_unavailable');

  const row = { providerId: (deps.newId ?? newProviderId)(), ownerHash, kind: request.kind, baseUrl: baseUrl.url };
  const record: ModelProviderRecord = {
    ...row,
    model: request.model,
    reasoningEffort: request.reasoning_effort ?? null,
    label: request.label ?? null,
    secret:
      request.api_key === undefined || deps.secretBox === undefined
        ? null
        : sealProviderKey(deps.secretBox, row, request.api_key),
    createdAt: deps.now(),
  };
  await deps.store.transaction(async (uow) => {
    // The owner's data subject is registered with its row, so subject access finds it (ADR-0004).
    await uow.subjects.registerOwner(ownerHash, subjectKey, record.createdAt);
    await uow.modelProviders.insert(record);
  });
  return modelProviderView(record);
};
