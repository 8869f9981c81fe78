import { randomBytes } from 'node:crypto';
import { ownershipOf, type Ownership, type Principal } from '../auth/principal.js';
import { hasFeature, type AccountPolicy } from '../domain/accountPolicy.js';
import { HelixError } from '../domain/errors.js';
import { OPERATION_SCOPES, type ModelProviderOperation } from '../domain/scopes.js';
import { parseInput } from '../service/validate.js';
import type { ModelProviderRecord, Store } from '../store/port.js';
import type { HostResolver } from '../net/resolveDestination.js';
import type { BaseUrlPolicy } from '../net/baseUrlPolicy.js';
import { checkOwnerDestination } from '../net/ownerDestination.js';
import { sealProviderKey } from './providerKeySeal.js';
import {
  MODEL_PROVIDER_ID,
  MODEL_PROVIDER_LIST_SCHEMA,
  RegisterModelProviderSchema,
  modelProviderView,
  type ModelProviderListView,
  type ModelProviderView,
} from './providerSchemas.js';
import type { SecretBox } from './secretBox.js';

export interface ProviderServiceDeps {
  readonly store: Store;
  /** Undefined when no HELIX_PROVIDER_SECRET_KEY is configured: API keys are then refused, not stored in clear. */
  readonly secretBox: SecretBox | undefined;
  /** Keys the owner hash, exactly as for runs. */
  readonly instanceSecret: string;
  readonly baseUrlPolicy: BaseUrlPolicy;
  /** The account policy: registering a provider needs the `model_providers` feature. */
  readonly policies: { forPrincipal(principal: Principal): Promise<AccountPolicy> };
  /** Resolves a base URL's host at registration (the system resolver in production). */
  readonly resolveHost: HostResolver;
  readonly now: () => number;
  readonly newId?: () => string;
}

const newProviderId = (): string => `mp_${randomBytes(16).toString('base64url')}`;

/** Another owner's registration is reported exactly like one that does not exist. */
const notFound = (): HelixError => new HelixError('not_found', {}, 'The model provider was not found.');

/** The four model-provider operations; each checks its scope first (RFC 6750 §3.1). */
export class ProviderService {
  constructor(private readonly deps: ProviderServiceDeps) {}

  async register(principal: Principal, body: unknown): Promise<ModelProviderView> {
    const { ownerHash, subjectKey } = this.ownershipFor(principal, 'model_provider.register');
    if (!hasFeature(await this.deps.policies.forPrincipal(principal), 'model_providers')) {
      throw new HelixError('feature_not_enabled', { feature: 'model_providers' });
    }
    const request = parseInput(RegisterModelProviderSchema, body);
    // Checked again before every request (src/providers/ownerTransport.ts); this is the early, clear refusal.
    const baseUrl = await checkOwnerDestination(request.base_url, this.deps.baseUrlPolicy, this.deps.resolveHost);
    if (!baseUrl.ok) {
      throw new HelixError(baseUrl.refusal === 'shape' ? 'invalid_request' : 'provider_destination_refused', {
        issues: [{ path: 'base_url', message: baseUrl.reason }],
      });
    }
    if (request.api_key !== undefined && this.deps.secretBox === undefined)
      throw new HelixError('provider_secrets_unavailable');

    const row = {
      providerId: (this.deps.newId ?? newProviderId)(),
      ownerHash,
      kind: request.kind,
      baseUrl: baseUrl.url,
    };
    const record: ModelProviderRecord = {
      ...row,
      model: request.model,
      reasoningEffort: request.reasoning_effort ?? null,
      label: request.label ?? null,
      secret:
        request.api_key === undefined || this.deps.secretBox === undefined
          ? null
          : sealProviderKey(this.deps.secretBox, row, request.api_key),
      createdAt: this.deps.now(),
    };
    await this.deps.store.transaction(async (uow) => {
      // The owner's data subject is registered with its row, so subject access finds it (ADR-0004).
      await uow.subjects.registerOwner(ownerHash, subjectKey, record.createdAt);
      await uow.modelProviders.insert(record);
    });
    return modelProviderView(record);
  }

  async list(principal: Principal): Promise<ModelProviderListView> {
    const ownerHash = this.ownerOf(principal, 'model_provider.list');
    const records = await this.deps.store.read.modelProviders.listByOwner(ownerHash);
    return { schema: MODEL_PROVIDER_LIST_SCHEMA, providers: records.map(modelProviderView) };
  }

  async inspect(principal: Principal, providerId: string): Promise<ModelProviderView> {
    const ownerHash = this.ownerOf(principal, 'model_provider.inspect');
    if (!MODEL_PROVIDER_ID.test(providerId)) throw notFound();
    const record = await this.deps.store.read.modelProviders.getForOwner(ownerHash, providerId);
    if (record === undefined) throw notFound();
    return modelProviderView(record);
  }

  async remove(principal: Principal, providerId: string): Promise<void> {
    const ownerHash = this.ownerOf(principal, 'model_provider.delete');
    if (!MODEL_PROVIDER_ID.test(providerId)) throw notFound();
    if (!(await this.deps.store.transaction((uow) => uow.modelProviders.deleteForOwner(ownerHash, providerId))))
      throw notFound();
  }

  private ownerOf(principal: Principal, operation: ModelProviderOperation): string {
    return this.ownershipFor(principal, operation).ownerHash;
  }

  private ownershipFor(principal: Principal, operation: ModelProviderOperation): Ownership {
    if (!principal.scopes.allows(operation))
      throw new HelixError('insufficient_scope', { scope: OPERATION_SCOPES[operation].oauth });
    return ownershipOf(principal, this.deps.instanceSecret);
  }
}
