import { describe, expect, it } from 'vitest';
import { admitManifest, type SourceManifest } from './adapterManifestAdmission.js';
import {
  ENVIRONMENT_ADAPTER_PROFILE_SCHEMA,
  MINECRAFT_INVENTORY_CHECK_PROBE,
  MINECRAFT_READONLY_PROFILE,
  profileContractHash,
  SYNTHETIC_FIXTURE_PROFILE,
} from './environmentAdapterProfiles.js';
import { createAdapterRegistry } from './environmentAdapterRegistry.js';
import { HelixError } from './errors.js';

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    if (error instanceof HelixError) return error.code;
    throw error;
  }
  return undefined;
};

const production = createAdapterRegistry({ fixturesEnabled: false });
const withFixtures = createAdapterRegistry({ fixturesEnabled: true });

describe('the environment adapter registry (ING-04, §22)', () => {
  it('enables Minecraft and, without the fixture switch, nothing else', () => {
    expect(production.enabledProfiles().map(({ profile }) => profile.profile_id)).toEqual([
      'game.minecraft.readonly.v1',
    ]);
    expect(withFixtures.enabledProfiles().map(({ profile }) => profile.profile_id)).toEqual([
      'game.minecraft.readonly.v1',
      'game.synthetic_fixture.readonly.v1',
    ]);
  });

  it('pins the Minecraft profile: schema, world prefix, mechanics, the inventory probe, read-only ingress, the action lane’s kinds (M-01)', () => {
    const { profile } = production.resolve('game.minecraft.readonly.v1', 'minecraft:overworld');
    expect(profile).toMatchObject({
      schema: ENVIRONMENT_ADAPTER_PROFILE_SCHEMA,
      profile_id: 'game.minecraft.readonly.v1',
      world_id_prefixes: ['minecraft:'],
      mechanics_collections: ['mechanics.minecraft.java.v1'],
      required_probe_types: [MINECRAFT_INVENTORY_CHECK_PROBE],
      execution_policy: { live_actions: false, credential_reuse: false },
      // M-01, D-10, D-11: the admitted action kinds, and those that need an approval receipt.
      action_lane: {
        action_kinds: [
          'navigate_to',
          'look_at',
          'walk',
          'jump',
          'hotbar_select',
          'equip',
          'follow',
          'mine',
          'place',
          'interact',
        ],
        approval_required_kinds: ['mine', 'place', 'interact', 'equip'],
      },
    });
    expect(
      production.resolve('game.minecraft.readonly.v1', 'minecraft:overworld').profile.action_lane?.action_kinds,
    ).not.toContain('craft');
  });

  it('hashes the contract with SHA-256 over canonical JSON: stable, and any change moves it', () => {
    const hash = profileContractHash(MINECRAFT_READONLY_PROFILE);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(production.resolve('game.minecraft.readonly.v1', 'minecraft:overworld').contractHash).toBe(hash);
    const reordered = Object.fromEntries(Object.entries(MINECRAFT_READONLY_PROFILE).reverse());
    expect(profileContractHash(reordered as typeof MINECRAFT_READONLY_PROFILE)).toBe(hash);
    const widened = { ...MINECRAFT_READONLY_PROFILE, protocol_versions: ['1.20.2', '1.21.4', '1.8'] };
    expect(profileContractHash(widened)).not.toBe(hash);
    expect(profileContractHash(SYNTHETIC_FIXTURE_PROFILE)).not.toBe(hash);
  });

  it('refuses an unknown adapter, a disabled fixture and a world outside the profile, each typed', () => {
    expect(codeOf(() => production.resolve('terraria', 'terraria:one'))).toBe('environment_adapter_unknown');
    expect(codeOf(() => production.resolve('synthetic_game.fixture.v1', 'synthetic-game:a'))).toBe(
      'environment_adapter_disabled',
    );
    expect(withFixtures.resolve('synthetic_game.fixture.v1', 'synthetic-game:a').profile.profile_id).toBe(
      'game.synthetic_fixture.readonly.v1',
    );
    // Cross-adapter: a Minecraft adapter with a synthetic world, a bare prefix, a fixture world on Minecraft.
    expect(codeOf(() => withFixtures.resolve('game.minecraft.readonly.v1', 'synthetic-game:a'))).toBe(
      'environment_adapter_identity_mismatch',
    );
    expect(codeOf(() => production.resolve('game.minecraft.readonly.v1', 'minecraft:'))).toBe(
      'environment_adapter_identity_mismatch',
    );
    expect(codeOf(() => withFixtures.resolve('synthetic_game.fixture.v1', 'minecraft:overworld'))).toBe(
      'environment_adapter_identity_mismatch',
    );
  });

  it('finds a stored profile by id only while it is enabled', () => {
    expect(production.byId('game.minecraft.readonly.v1')?.profile.profile_version).toBe(1);
    expect(production.byId('game.synthetic_fixture.readonly.v1')).toBeUndefined();
    expect(withFixtures.byId('game.synthetic_fixture.readonly.v1')).toBeDefined();
  });
});

describe('manifest admission (ING-02, §22)', () => {
  const minecraft = production.resolve('game.minecraft.readonly.v1', 'minecraft:overworld');
  const source = { domainAdapter: 'game.minecraft.readonly.v1', worldId: 'minecraft:overworld' };
  const manifest: SourceManifest = {
    manifest_id: 'mf-1',
    profile_id: 'game.minecraft.readonly.v1',
    profile_version: 1,
    domain_adapter: 'game.minecraft.readonly.v1',
    world_id: 'minecraft:overworld',
    protocol_version: '1.21.4',
    mechanics_collections: ['mechanics.minecraft.java.v1'],
    modalities: ['position', 'vitals', 'inventory', 'nearby_blocks'],
    probe_types: [MINECRAFT_INVENTORY_CHECK_PROBE],
  };
  const admit = (changes: Partial<SourceManifest>) =>
    codeOf(() => admitManifest(minecraft, source, { ...manifest, ...changes }));

  it('admits a compatible manifest with the values of the profile, not of the manifest', () => {
    const admission = admitManifest(minecraft, source, manifest);
    expect(admission).toMatchObject({
      schema: 'helix.environment_adapter_admission.v1',
      profile_id: 'game.minecraft.readonly.v1',
      profile_version: 1,
      profile_contract_hash: minecraft.contractHash,
      manifest_id: 'mf-1',
      mechanics_collections: ['mechanics.minecraft.java.v1'],
    });
    expect(admission.manifest_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(admitManifest(minecraft, source, { ...manifest, manifest_id: 'mf-2' }).manifest_hash).not.toBe(
      admission.manifest_hash,
    );
  });

  it("refuses a second adapter's manifest on a Minecraft binding, and another world", () => {
    expect(admit({ profile_id: 'game.synthetic_fixture.readonly.v1' })).toBe('environment_adapter_identity_mismatch');
    expect(admit({ domain_adapter: 'synthetic_game.fixture.v1' })).toBe('environment_adapter_identity_mismatch');
    expect(admit({ world_id: 'minecraft:nether' })).toBe('environment_adapter_identity_mismatch');
  });

  it('refuses an unsupported protocol, a missing modality or probe, an extra probe, other mechanics', () => {
    expect(admit({ protocol_version: '1.8.9' })).toBe('environment_adapter_protocol_unsupported');
    expect(admit({ profile_version: 2 })).toBe('environment_adapter_manifest_incompatible');
    expect(admit({ modalities: ['position'] })).toBe('environment_adapter_manifest_incompatible');
    expect(admit({ probe_types: [] })).toBe('environment_adapter_manifest_incompatible');
    expect(admit({ probe_types: [MINECRAFT_INVENTORY_CHECK_PROBE, 'minecraft.break_block'] })).toBe(
      'environment_adapter_manifest_incompatible',
    );
    expect(admit({ mechanics_collections: ['mechanics.minecraft.bedrock.v1'] })).toBe(
      'environment_adapter_mechanics_incompatible',
    );
  });
});
