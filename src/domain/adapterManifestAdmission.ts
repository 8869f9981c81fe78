import { HelixError } from './errors.js';
import { canonicalJson, sha256Hex } from './hashing.js';
import type { ResolvedAdapterProfile } from './environmentAdapterRegistry.js';

/**
 * Manifest admission (ING-02, ING-04, §22): a producer's manifest proves it is compatible with the
 * profile its source was created under. Every value of the admission comes from the profile and
 * the source; the manifest contributes only its id and hash, so it can never create or alter a
 * profile.
 */
export const ADAPTER_ADMISSION_SCHEMA = 'helix.environment_adapter_admission.v1';

export interface SourceManifest {
  readonly manifest_id: string;
  readonly profile_id: string;
  readonly profile_version: number;
  readonly domain_adapter: string;
  readonly world_id: string;
  readonly protocol_version: string;
  readonly mechanics_collections: readonly string[];
  readonly modalities: readonly string[];
  readonly probe_types: readonly string[];
}

/** What the source was created with (the stored source row). */
export interface SourceIdentity {
  readonly domainAdapter: string;
  readonly worldId: string;
}

export interface AdapterAdmission {
  readonly schema: typeof ADAPTER_ADMISSION_SCHEMA;
  readonly profile_id: string;
  readonly profile_version: number;
  readonly profile_contract_hash: string;
  readonly manifest_id: string;
  readonly manifest_hash: string;
  readonly mechanics_collections: readonly string[];
}

const covers = (declared: readonly string[], required: readonly string[]): boolean =>
  required.every((item) => declared.includes(item));

/** Throws the typed `environment_adapter_*` failure of the first check the manifest fails. */
export const admitManifest = (
  resolved: ResolvedAdapterProfile,
  source: SourceIdentity,
  manifest: SourceManifest,
): AdapterAdmission => {
  const { profile } = resolved;
  // Identity first: a second adapter's manifest on this binding is refused before any compatibility.
  const identityMatches =
    manifest.profile_id === profile.profile_id &&
    manifest.domain_adapter === source.domainAdapter &&
    manifest.world_id === source.worldId &&
    profile.domain_adapters.includes(manifest.domain_adapter);
  if (!identityMatches) throw new HelixError('environment_adapter_identity_mismatch');
  if (!profile.protocol_versions.includes(manifest.protocol_version)) {
    throw new HelixError('environment_adapter_protocol_unsupported');
  }
  const compatible =
    manifest.profile_version === profile.profile_version &&
    covers(manifest.modalities, profile.required_modalities) &&
    covers(manifest.probe_types, profile.required_probe_types) &&
    covers(profile.allowed_probe_types, manifest.probe_types);
  if (!compatible) throw new HelixError('environment_adapter_manifest_incompatible');
  if (!covers(manifest.mechanics_collections, profile.mechanics_collections)) {
    throw new HelixError('environment_adapter_mechanics_incompatible');
  }
  return {
    schema: ADAPTER_ADMISSION_SCHEMA,
    profile_id: profile.profile_id,
    profile_version: profile.profile_version,
    profile_contract_hash: resolved.contractHash,
    manifest_id: manifest.manifest_id,
    manifest_hash: sha256Hex(canonicalJson(manifest)),
    mechanics_collections: profile.mechanics_collections,
  };
};
