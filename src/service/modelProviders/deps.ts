import type { Principal } from '../../auth/principal.js';
import type { AccountPolicy } from '../../domain/accountPolicy.js';
import type { HostResolver } from '../../net/resolveDestination.js';
import type { BaseUrlPolicy } from '../../net/baseUrlPolicy.js';
import type { SecretBox } from '../../providers/secretBox.js';
import type { Store } from '../../store/port.js';

/** What every model-provider use case needs; the composition root builds it once. */
export interface ModelProviderDeps {
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
