import type { ObservationRecord } from '../../domain/roomObservations.js';
import { stemSet } from '../../domain/terms.js';
import type { RoomObservationProvenance } from '../../domain/turn.js';
import { makeArtifact } from '../artifact.js';
import type { CapabilityContext, CapabilityHit, CapabilityResult } from '../capability.js';
import type { ObservationSection } from './observationSentences.js';

/**
 * BRE-07, ING-03: what an artifact tells about the observation it projects. The producer epoch
 * hash and the owner hash stay out: the first is a connection secret's digest, the second an
 * internal key.
 */
export const observationProvenance = (o: ObservationRecord): RoomObservationProvenance => ({
  observation_id: o.observationId,
  room_id: o.roomId,
  source_id: o.sourceId,
  world_id: o.worldId,
  profile_id: o.profileId,
  profile_version: o.profileVersion,
  profile_hash: o.profileHash,
  manifest_id: o.manifestId,
  manifest_hash: o.manifestHash,
  request_id: o.requestId,
  observed_at: new Date(o.observedAt).toISOString(),
  received_at: new Date(o.receivedAt).toISOString(),
  reentry_required: true,
  execution_enabled: false,
});

/** How many of the query's content terms the section states: the query decides the order. */
const overlap = (queryStems: ReadonlySet<string>, section: ObservationSection): number => {
  const stems = stemSet(`${section.title} ${section.text}`);
  let shared = 0;
  for (const term of queryStems) if (stems.has(term)) shared += 1;
  return shared;
};

export interface Projection {
  readonly family: string;
  readonly capabilityId: string;
  /** The search query; absent for a probe, whose one answer is what was asked. */
  readonly query?: string;
  readonly limit: number;
}

/**
 * One evidence artifact and hit per section, citing the observation by its exact identity
 * (`helix-room://<room>/sources/<source>/observations/<id>#<section>`), ranked by query overlap,
 * sections the query shares no term with last (a room has few sections; the limit still bounds them).
 */
export const projectObservation = (
  observation: ObservationRecord,
  sections: readonly ObservationSection[],
  projection: Projection,
  context: CapabilityContext,
): CapabilityResult => {
  const queryStems = stemSet(projection.query ?? '');
  const ranked = sections
    .map((s, index) => ({ s, index, score: overlap(queryStems, s) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, projection.limit);
  const retrievedAt = new Date(context.now()).toISOString();
  const base = `helix-room://${observation.roomId}/sources/${observation.sourceId}/observations/${observation.observationId}`;
  const found = ranked.map(({ s, score }) => {
    const artifact = makeArtifact({
      kind: 'evidence',
      family: projection.family,
      capabilityId: projection.capabilityId,
      content: s.text,
      title: s.title,
      provenance: {
        source_id: observation.sourceId,
        locator: `${base}#${s.section}`,
        retrieved_at: retrievedAt,
        turn: context.turn,
        room_observation: observationProvenance(observation),
      },
    });
    const hit: CapabilityHit = {
      ref: artifact.ref,
      title: s.title,
      text: s.text,
      score,
      documentId: `${observation.sourceId}:${s.section}`,
    };
    return { artifact, hit };
  });
  return { artifacts: found.map((f) => f.artifact), hits: found.map((f) => f.hit) };
};
