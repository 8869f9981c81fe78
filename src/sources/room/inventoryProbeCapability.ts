import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { HelixError } from '../../domain/errors.js';
import type { ObservationRecord, ProbeRecord } from '../../domain/roomObservations.js';
import type { Capability, CapabilityContext, CapabilityResult } from '../capability.js';
import { admittedSources, checkBinding, checkFreshness, checkProvenance } from './boundRoomChecks.js';
import type { BoundRoomLane } from './boundRoomLane.js';
import { projectObservation } from './observationArtifacts.js';
import { probeResultSections } from './observationSentences.js';

export const INVENTORY_PROBE_CAPABILITY = 'com.casimirbot.minecraft.inventory.check';
export const PROBE_FAMILY = 'shared_live_room_environment_probe';

/** Searched like the other evidence, so the extractive executor can ask; the query only ranks. */
const ProbeInput = z.strictObject({
  query: z.string().trim().min(1).max(500).optional(),
  limit: z.number().int().min(1).max(20).default(8),
});

/** The ingress lane's probe id shape (`/^[A-Za-z0-9._:-]{16,128}$/`): `prb_` and 32 random hex digits. */
const newProbeId = (): string => `prb_${randomBytes(16).toString('hex')}`;

const isOpen = (probe: ProbeRecord | undefined): boolean =>
  probe === undefined || probe.status === 'pending' || probe.status === 'delivered';

/**
 * Polls the probe row until the source answers or the wait is spent; an abandoned probe is expired
 * so a late answer is refused. The turn's abort signal ends the wait at once.
 */
const awaitAnswer = async (lane: BoundRoomLane, probeId: string, context: CapabilityContext): Promise<ProbeRecord> => {
  const polls = Math.max(1, Math.ceil(lane.probe.waitMs / lane.probe.intervalMs));
  try {
    for (let poll = 0; poll < polls; poll += 1) {
      const probe = await lane.store.read.roomIngress.getProbe(probeId);
      if (probe !== undefined && !isOpen(probe)) return probe;
      await sleep(lane.probe.intervalMs, undefined, { signal: context.signal });
    }
  } finally {
    // Expiring an answered probe changes nothing (false), so this is safe on every way out.
    await lane.store.read.roomIngress.expireProbe(probeId, context.now());
  }
  const last = await lane.store.read.roomIngress.getProbe(probeId);
  if (last !== undefined && !isOpen(last) && last.status !== 'expired') return last;
  throw new HelixError('room_probe_timeout');
};

/** The probe's answer: the observation holding its result, or null when the source answered without one. */
const probeOnce = async (lane: BoundRoomLane, context: CapabilityContext): Promise<ObservationRecord | null> => {
  const read = lane.store.read;
  const { binding, room } = await checkBinding(read, context.runId);
  const [admitted] = await admittedSources(read, room.roomId, lane, context.now());
  if (admitted === undefined) throw new HelixError('room_evidence_source_unavailable');
  const requestedAt = context.now();
  const probeId = newProbeId();
  await read.roomIngress.insertProbe({
    probeId,
    sourceId: admitted.source.sourceId,
    roomId: room.roomId,
    ownerHash: admitted.source.ownerHash,
    runId: binding.runId,
    turn: context.turn,
    probeType: INVENTORY_PROBE_CAPABILITY,
    status: 'pending',
    requestedAt,
    expiresAt: requestedAt + lane.probe.waitMs,
    deliveredAt: null,
    answeredAt: null,
    observationId: null,
  });
  const answered = await awaitAnswer(lane, probeId, context);
  if (answered.status !== 'completed' || answered.observationId === null) return null;
  const observation = await read.roomIngress.getObservation(answered.observationId);
  if (observation === undefined || observation.kind !== 'probe_result' || observation.eventId !== probeId)
    throw new HelixError('room_evidence_identity_mismatch');
  checkProvenance(observation, room.roomId, admitted);
  checkFreshness(observation, context.now(), lane.maxAgeMs);
  return observation;
};

/** How many turns' probe answers are remembered; a turn only reuses its own. */
const REMEMBERED_TURNS = 256;

/**
 * One probe per turn: the extractive executor searches once per planned query, and each of those
 * calls re-ranks the same answer instead of asking the world again.
 */
const perTurn = (lane: BoundRoomLane) => {
  const answers = new Map<string, Promise<ObservationRecord | null>>();
  return (context: CapabilityContext): Promise<ObservationRecord | null> => {
    const key = `${context.runId}#${context.turn}`;
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = probeOnce(lane, context);
      answers.set(key, answer);
      const oldest = answers.keys().next().value;
      if (answers.size > REMEMBERED_TURNS && oldest !== undefined) answers.delete(oldest);
    }
    return answer;
  };
};

const project = async (
  lane: BoundRoomLane,
  observation: ObservationRecord | null,
  input: z.output<typeof ProbeInput>,
  context: CapabilityContext,
): Promise<CapabilityResult> => {
  // BRE-05: membership, role, consent identity and room status once more, right before projecting.
  await checkBinding(lane.store.read, context.runId);
  if (observation === null) return { artifacts: [], hits: [] };
  const sections = probeResultSections(JSON.parse(observation.payloadJson));
  const projection = { family: PROBE_FAMILY, capabilityId: INVENTORY_PROBE_CAPABILITY, limit: input.limit };
  return projectObservation(
    observation,
    sections,
    { ...projection, ...(input.query === undefined ? {} : { query: input.query }) },
    context,
  );
};

/**
 * `com.casimirbot.minecraft.inventory.check` (PRB-01, PRB-02): asks the run's bound room's
 * admitted read-only source to check the player's inventory now, and waits for its answer through
 * the ingress lane's probe routes. One probe per turn; nothing acts in the world.
 */
export const inventoryProbeCapability = (lane: BoundRoomLane): Capability<z.output<typeof ProbeInput>> => {
  const answerOf = perTurn(lane);
  return {
    id: INVENTORY_PROBE_CAPABILITY,
    scope: 'bound_room_environment_probe',
    family: PROBE_FAMILY,
    kind: 'search',
    description:
      "Ask the run's bound room's source to check the player's inventory now; waits for the answer and cites it.",
    input: ProbeInput,
    execute: async (input, context) => project(lane, await answerOf(context), input, context),
    precheck: async (context) => {
      const { room } = await checkBinding(lane.store.read, context.runId);
      await admittedSources(lane.store.read, room.roomId, lane, context.now());
    },
  };
};
