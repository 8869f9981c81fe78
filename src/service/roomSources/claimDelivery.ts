import { projectSource, type SourceView } from '../../api/roomSourceViews.js';
import { hasFeature } from '../../domain/accountPolicy.js';
import { HelixError } from '../../domain/errors.js';
import { DELIVERY_HANDLE_PATTERN, hasActionLane } from '../../domain/roomSources.js';
import { requireRoomFeatureFor } from '../rooms/access.js';
import type { RoomDeps } from '../rooms/deps.js';
import { hashSourceSecret, newActionCredential, newSourceBearer } from './credentials.js';
import { loadOwnedSource } from './ownedSource.js';

/** The connector's configuration, shown once with the bearer (SRC-04); the bearer itself is `token_value`. */
export interface PluginConfig {
  readonly ingress_base_path: string;
  readonly binding_id: string;
  readonly room_id: string;
  readonly domain_adapter: string;
  readonly world_id: string;
  readonly adapter_profile_id: string;
  /** Where the connector polls actions with `action_token_value`; null when the adapter has no action lane. */
  readonly action_base_path: string | null;
}

export interface DeliveryClaimed {
  readonly token_value: string;
  readonly token_value_shown_once: true;
  /** M-02: the action credential, shown once beside the bearer; null when the adapter has no action lane. */
  readonly action_token_value: string | null;
  readonly plugin_config: PluginConfig;
  readonly source: SourceView;
}

/** ING-01 [ref]: the ingress lane's mount; `{binding_id}` is the source id. */
export const INGRESS_BASE_PATH = '/api/room-ingress/v1/bindings';
/** §23.3: the action lane's mount (connectors/minecraft/src/actionWire.ts ACTION_PREFIX). */
export const ACTION_BASE_PATH = '/api/room-actions/v1/bindings';

const deliveryNotFound = (): HelixError =>
  new HelixError('not_found', {}, 'The credential delivery was not found; it may be claimed or expired.');

/**
 * SRC-04, SRC-05, D-05: the signed-in developer room owner claims a delivery once. Only now is
 * the source bearer minted, with the separate action credential where the adapter has an action
 * lane (M-02); both are answered once and only their SHA-256 is stored. A claim also
 * invalidates any admission of an earlier credential. Unknown, used, expired and another
 * account's handles are one answer: not found (a non-owner learns nothing about the handle).
 */
export const claimDelivery = async (deps: RoomDeps, accountId: string, handle: string): Promise<DeliveryClaimed> => {
  if (!DELIVERY_HANDLE_PATTERN.test(handle)) throw deliveryNotFound();
  await requireRoomFeatureFor(deps, accountId);
  if (!hasFeature(await deps.policies.forAccount(accountId), 'developer'))
    throw new HelixError('feature_not_enabled', { feature: 'developer' });
  const handleHash = hashSourceSecret(handle);
  const now = deps.now();
  return deps.store.transaction(async (uow) => {
    const delivery = await uow.roomSources.getDelivery(handleHash);
    if (delivery === undefined) throw deliveryNotFound();
    const { source } = await loadOwnedSource(uow, accountId, delivery.sourceId).catch((err: unknown) => {
      throw err instanceof HelixError ? deliveryNotFound() : err;
    });
    if (source.status !== 'active' || source.expiresAt <= now) throw deliveryNotFound();
    if ((await uow.roomSources.claimDelivery(handleHash, accountId, now)) === undefined) throw deliveryNotFound();
    const bearer = newSourceBearer();
    const actionToken = hasActionLane(source.domainAdapter) ? newActionCredential() : null;
    const hashes = {
      credentialHash: hashSourceSecret(bearer),
      actionCredentialHash: actionToken === null ? null : hashSourceSecret(actionToken),
    };
    if (!(await uow.roomSources.setCredential(source.sourceId, hashes, now))) throw deliveryNotFound();
    await uow.roomSources.invalidateAdmissions(source.sourceId, now);
    const claimed = { ...source, ...hashes, credentialCreatedAt: now };
    return {
      token_value: bearer,
      token_value_shown_once: true as const,
      action_token_value: actionToken,
      plugin_config: {
        ingress_base_path: `${INGRESS_BASE_PATH}/${source.sourceId}`,
        binding_id: source.sourceId,
        room_id: source.roomId,
        domain_adapter: source.domainAdapter,
        world_id: source.worldId,
        adapter_profile_id: source.profileId,
        action_base_path: actionToken === null ? null : `${ACTION_BASE_PATH}/${source.sourceId}`,
      },
      source: projectSource(claimed, now),
    };
  });
};
