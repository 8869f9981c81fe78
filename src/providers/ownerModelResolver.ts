import { ModelError, type ModelClient, type ModelResolver, type ModelSelection } from '../model/port.js';
import type { ModelProviderRecord, Store } from '../store/port.js';
import { openProviderKey } from './providerKeySeal.js';
import {
  REASONING_EFFORTS,
  REGISTRABLE_PROVIDER_KINDS,
  type ProviderSettings,
  type ReasoningEffort,
  type RegistrableProviderKind,
} from './providerSettings.js';
import { SecretBoxError, type SecretBox } from './secretBox.js';

/**
 * Whose choice a provider is: an owner's registration goes out under the outbound policy
 * (src/providers/ownerTransport.ts); the operator's default is the operator's own choice.
 */
export const PROVIDER_SOURCES = ['owner_registration', 'operator_default'] as const;
export type ProviderSource = (typeof PROVIDER_SOURCES)[number];

/** Builds a client for one provider; supplied by the composition root (src/server.ts). */
export type ModelClientFactory = (settings: ProviderSettings, source: ProviderSource) => ModelClient;

export interface OwnerModelResolverDeps {
  readonly store: Store;
  readonly secretBox: SecretBox | undefined;
  /** The operator default (config.model.defaultProvider) for owners without a registration. */
  readonly operatorDefault: ProviderSettings | undefined;
  readonly clientFor: ModelClientFactory;
}

const unusable = (message: string): ModelError => new ModelError('auth', message, { retryable: false });

/**
 * A run uses its owner's newest registration, else the operator default, else nothing. An owner's
 * registration that cannot be used (its key sealed under a rotated operator key, or altered) fails
 * the turn rather than silently spending the operator's provider. Keys are opened only here, per
 * call, and handed straight to the client; nothing is cached in clear.
 */
export class OwnerModelResolver implements ModelResolver {
  constructor(private readonly deps: OwnerModelResolverDeps) {}

  async forOwner(
    ownerHash: string,
    signal: AbortSignal,
    options: { readonly ownProviders: boolean },
  ): Promise<ModelSelection | undefined> {
    signal.throwIfAborted();
    const record = options.ownProviders
      ? await this.deps.store.read.modelProviders.newestForOwner(ownerHash)
      : undefined;
    const settings = record === undefined ? this.deps.operatorDefault : this.settingsOf(record);
    if (settings === undefined) return undefined;
    return {
      client: this.deps.clientFor(settings, record === undefined ? 'operator_default' : 'owner_registration'),
      model: settings.model,
      ...(settings.reasoningEffort === undefined ? {} : { reasoningEffort: settings.reasoningEffort }),
    };
  }

  private settingsOf(record: ModelProviderRecord): ProviderSettings {
    if (!(REGISTRABLE_PROVIDER_KINDS as readonly string[]).includes(record.kind)) {
      throw unusable('the registered model provider has an unknown kind; register it again');
    }
    const effort = (REASONING_EFFORTS as readonly string[]).includes(record.reasoningEffort ?? '')
      ? { reasoningEffort: record.reasoningEffort as ReasoningEffort }
      : {};
    const common = {
      kind: record.kind as RegistrableProviderKind,
      baseUrl: record.baseUrl,
      model: record.model,
      ...effort,
    };
    if (record.secret === null) return common;
    return { ...common, apiKey: this.openKey(record, record.secret) };
  }

  private openKey(record: ModelProviderRecord, secret: NonNullable<ModelProviderRecord['secret']>): string {
    const box = this.deps.secretBox;
    if (box === undefined)
      throw unusable('the model provider API key cannot be opened: no HELIX_PROVIDER_SECRET_KEY is configured');
    try {
      return openProviderKey(box, record, secret);
    } catch (err) {
      if (err instanceof SecretBoxError && err.failure === 'key_mismatch') {
        throw unusable(
          'the model provider API key was encrypted under a different HELIX_PROVIDER_SECRET_KEY; register the provider again',
        );
      }
      throw unusable(
        'the stored model provider API key failed authentication (altered or moved); register the provider again',
      );
    }
  }
}
