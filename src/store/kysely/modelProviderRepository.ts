import type { Kysely, Selectable } from 'kysely';
import type { ModelProviderRecord, ModelProviderRepository } from '../port.js';
import type { HelixDatabase, ModelProvidersTable } from '../schema.js';
import { toMillis } from './columns.js';
import { compiledOnce } from './compiledOnce.js';

const fromRow = (row: Selectable<ModelProvidersTable>): ModelProviderRecord => ({
  providerId: row.provider_id,
  ownerHash: row.owner_hash,
  kind: row.kind,
  baseUrl: row.base_url,
  model: row.model,
  reasoningEffort: row.reasoning_effort,
  label: row.label,
  secret:
    row.secret_ciphertext === null || row.secret_iv === null || row.secret_tag === null || row.secret_key_id === null
      ? null
      : { ciphertext: row.secret_ciphertext, iv: row.secret_iv, tag: row.secret_tag, keyId: row.secret_key_id },
  createdAt: toMillis(row.created_at),
});

// Newest first; equal instants fall back to the id so the order is total and the same on both dialects.
const ownedNewestFirst = (db: Kysely<HelixDatabase>, ownerHash: string) =>
  db
    .selectFrom('helix_model_providers')
    .selectAll()
    .where('owner_hash', '=', ownerHash)
    .orderBy('created_at', 'desc')
    .orderBy('provider_id', 'desc');

// Every turn of the default executor asks for the owner's newest registration: compiled once (compiledOnce.ts).
const selectNewest = compiledOnce((db, ownerHash: string) => ownedNewestFirst(db, ownerHash).limit(1));

export const modelProviderRepository = (db: Kysely<HelixDatabase>): ModelProviderRepository => ({
  async insert(provider) {
    await db
      .insertInto('helix_model_providers')
      .values({
        provider_id: provider.providerId,
        owner_hash: provider.ownerHash,
        kind: provider.kind,
        base_url: provider.baseUrl,
        model: provider.model,
        reasoning_effort: provider.reasoningEffort,
        label: provider.label,
        secret_ciphertext: provider.secret?.ciphertext ?? null,
        secret_iv: provider.secret?.iv ?? null,
        secret_tag: provider.secret?.tag ?? null,
        secret_key_id: provider.secret?.keyId ?? null,
        created_at: provider.createdAt,
      })
      .execute();
  },
  async listByOwner(ownerHash) {
    return (await ownedNewestFirst(db, ownerHash).execute()).map(fromRow);
  },
  async getForOwner(ownerHash, providerId) {
    const row = await db
      .selectFrom('helix_model_providers')
      .selectAll()
      .where('owner_hash', '=', ownerHash)
      .where('provider_id', '=', providerId)
      .executeTakeFirst();
    return row === undefined ? undefined : fromRow(row);
  },
  async deleteForOwner(ownerHash, providerId) {
    const result = await db
      .deleteFrom('helix_model_providers')
      .where('owner_hash', '=', ownerHash)
      .where('provider_id', '=', providerId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  },
  async newestForOwner(ownerHash) {
    const [row] = (await selectNewest<Selectable<ModelProvidersTable>>(db, ownerHash)).rows;
    return row === undefined ? undefined : fromRow(row);
  },
});
