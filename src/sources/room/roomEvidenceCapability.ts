import { z } from 'zod';
import type { ObservationRecord } from '../../domain/roomObservations.js';
import type { Capability, CapabilityContext, CapabilityResult } from '../capability.js';
import { admittedSources, checkBinding, freshSnapshot } from './boundRoomChecks.js';
import { projectObservation } from './observationArtifacts.js';
import { snapshotSections } from './observationSentences.js';
import type { BoundRoomLane } from './boundRoomLane.js';

export const ROOM_EVIDENCE_CAPABILITY = 'room.evidence.read_bound';
export const ROOM_EVIDENCE_FAMILY = 'shared_live_room_evidence';

const SearchInput = z.strictObject({
  query: z.string().trim().min(1).max(500),
  limit: z.number().int().min(1).max(20).default(8),
});

/**
 * BRE-04 up to the observations: binding, participant and room, the admitted sources, and each
 * source's latest snapshot with exact provenance and freshness. Throws the first source's failure
 * when no source has a usable snapshot.
 */
const freshSnapshots = async (lane: BoundRoomLane, runId: string, now: number): Promise<ObservationRecord[]> => {
  const read = lane.store.read;
  const { room } = await checkBinding(read, runId);
  const snapshots: ObservationRecord[] = [];
  let firstFailure: unknown;
  for (const admitted of await admittedSources(read, room.roomId, lane, now)) {
    try {
      snapshots.push(await freshSnapshot(read, room.roomId, admitted, now, lane.maxAgeMs));
    } catch (err) {
      firstFailure ??= err;
    }
  }
  if (snapshots.length === 0) throw firstFailure;
  return snapshots;
};

const read = async (
  lane: BoundRoomLane,
  input: z.output<typeof SearchInput>,
  context: CapabilityContext,
): Promise<CapabilityResult> => {
  const snapshots = await freshSnapshots(lane, context.runId, context.now());
  // BRE-05: membership, role, consent identity and room status once more, right before projecting.
  await checkBinding(lane.store.read, context.runId);
  const projected = snapshots.map((observation) =>
    projectObservation(
      observation,
      snapshotSections(JSON.parse(observation.payloadJson)),
      { family: ROOM_EVIDENCE_FAMILY, capabilityId: ROOM_EVIDENCE_CAPABILITY, query: input.query, limit: input.limit },
      context,
    ),
  );
  const hits = projected
    .flatMap((p) => p.hits)
    .sort((a, b) => b.score - a.score)
    .slice(0, input.limit);
  const kept = new Set(hits.map((h) => h.ref));
  return { artifacts: projected.flatMap((p) => p.artifacts).filter((a) => kept.has(a.ref)), hits };
};

/**
 * `room.evidence.read_bound` (BRE-01): what the sources of the run's exact active room binding
 * last observed, as quotable sentences with exact observation provenance. Read-only; the lane has
 * `execution_enabled: false` (BRE-07) and never sends anything to the world.
 */
export const roomEvidenceCapability = (lane: BoundRoomLane): Capability<z.output<typeof SearchInput>> => ({
  id: ROOM_EVIDENCE_CAPABILITY,
  scope: 'bound_room_evidence',
  family: ROOM_EVIDENCE_FAMILY,
  kind: 'search',
  description:
    "What the run's bound room's source last observed (player position, vitals, inventory, nearby blocks and entities, time), as cited sentences.",
  input: SearchInput,
  execute: (input, context) => read(lane, input, context),
  precheck: async (context) => {
    await freshSnapshots(lane, context.runId, context.now());
  },
});
