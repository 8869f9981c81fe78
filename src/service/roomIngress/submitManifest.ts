import { type ManifestRequest, ManifestRequestSchema } from '../../api/roomIngressSchemas.js';
import { ADAPTER_ADMISSION_SCHEMA, admitManifest } from '../../domain/adapterManifestAdmission.js';
import { HelixError } from '../../domain/errors.js';
import type { RoomSourceRecord } from '../../domain/roomSources.js';
import type { RoomDeps } from '../rooms/deps.js';
import { newIngressId } from './ingressIds.js';
import { acceptIngressRequest, type IngressResult } from './ingressRequest.js';

/**
 * ING-02, ING-04, §22: the producer's manifest, first after every process start. The source's own
 * `(domain_adapter, world_id)` picks the profile through the registry; the manifest must name the
 * same adapter and world (a second adapter's manifest on this binding is
 * `environment_adapter_identity_mismatch`) and satisfy the profile. The manifest id is the
 * request's `request_id`; profile id and version come from the source row, never from the body.
 * The new admission supersedes every earlier one, so only this producer epoch is accepted next.
 */
export const submitManifest = (deps: RoomDeps, source: RoomSourceRecord, input: unknown): Promise<IngressResult> =>
  acceptIngressRequest(
    deps,
    { route: 'manifest', schema: ManifestRequestSchema, source, input },
    async (uow, { source, body, now, producerEpochHash }) => {
      const resolved = deps.adapters.resolve(source.domainAdapter, source.worldId);
      // The source was made under another contract of its profile: its producers are not admitted any more.
      if (resolved.contractHash !== source.profileHash) throw new HelixError('environment_adapter_contract_changed');
      const admitted = admitManifest(resolved, source, sourceManifest(source, body));
      const admissionId = newIngressId('adm');
      await uow.roomSources.invalidateAdmissions(source.sourceId, now);
      await uow.roomSources.insertAdmission({
        admissionId,
        sourceId: source.sourceId,
        ownerHash: source.ownerHash,
        profileId: admitted.profile_id,
        profileVersion: admitted.profile_version,
        profileHash: admitted.profile_contract_hash,
        manifestId: admitted.manifest_id,
        manifestHash: admitted.manifest_hash,
        producerEpochHash,
        admittedAt: now,
        invalidatedAt: null,
      });
      return {
        schema: ADAPTER_ADMISSION_SCHEMA,
        admission_id: admissionId,
        binding_id: source.sourceId,
        world_id: source.worldId,
        profile_id: admitted.profile_id,
        profile_version: admitted.profile_version,
        profile_contract_hash: admitted.profile_contract_hash,
        manifest_id: admitted.manifest_id,
        manifest_hash: admitted.manifest_hash,
        mechanics_collections: admitted.mechanics_collections,
        admitted_at: new Date(now).toISOString(),
      };
    },
  );

/** The manifest as admission reads it: what the producer declared, under the source's profile. */
const sourceManifest = (source: RoomSourceRecord, body: ManifestRequest) => ({
  manifest_id: body.request_id,
  profile_id: source.profileId,
  profile_version: source.profileVersion,
  domain_adapter: body.domain_adapter,
  world_id: body.world_id,
  protocol_version: body.protocol_version,
  mechanics_collections: body.mechanics_collections,
  modalities: body.modalities,
  probe_types: body.probe_types,
  producer: body.producer,
});
