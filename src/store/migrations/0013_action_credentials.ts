import type { Kysely, Migration } from 'kysely';

/**
 * The embodiment's action credential (docs/spec/shared-live-room-requirements.md M-02, SRC-07,
 * §23.3; docs/embodiment.md "The action credential"): a second secret of a source, separate from
 * its source bearer, minted with it when the delivery is claimed and dropped with it on rotation,
 * revocation and expiry. Only its SHA-256 is stored, beside the source bearer's hash.
 */
export const actionCredentials: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('helix_room_sources').addColumn('action_credential_hash', 'varchar(64)').execute();
  },
};
