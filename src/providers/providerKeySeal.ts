import { canonicalJson } from '../domain/hashing.js';
import type { ModelProviderRecord } from '../store/port.js';
import type { SecretBox, SealedSecret } from './secretBox.js';

type KeyBinding = Pick<ModelProviderRecord, 'providerId' | 'ownerHash' | 'kind' | 'baseUrl'>;

/**
 * The associated data a provider's API key is sealed with: its row (id, owner) and where the key is
 * sent (kind, base URL). Someone who can write the table still cannot move a ciphertext to another
 * row or owner, nor point a stored key at their own server: the key then fails to open.
 */
const associatedData = (row: KeyBinding): string =>
  canonicalJson(['helix.model_provider.api_key.v1', row.providerId, row.ownerHash, row.kind, row.baseUrl]);

export const sealProviderKey = (box: SecretBox, row: KeyBinding, apiKey: string): SealedSecret =>
  box.seal(apiKey, associatedData(row));

/** Throws SecretBoxError (`key_mismatch` after an operator key rotation, `unreadable` otherwise). */
export const openProviderKey = (box: SecretBox, row: KeyBinding, sealed: SealedSecret): string =>
  box.open(sealed, associatedData(row));
