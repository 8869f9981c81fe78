import type { Kysely } from 'kysely';
import type { ArtifactKind, Provenance } from '../../domain/turn.js';
import type { ArtifactRepository } from '../port.js';
import type { HelixDatabase } from '../schema.js';
import { toMillis } from './columns.js';

export const artifactRepository = (db: Kysely<HelixDatabase>): ArtifactRepository => ({
  async insertMany(runId, turn, artifacts, at) {
    if (artifacts.length === 0) return;
    await db
      .insertInto('helix_agent_run_artifacts')
      .values(
        artifacts.map((a) => ({
          run_id: runId,
          ref: a.ref,
          turn,
          kind: a.kind,
          family: a.family,
          capability_id: a.capabilityId,
          sha256: a.sha256,
          provenance: JSON.stringify(a.provenance),
          excerpt: a.excerpt,
          title: a.title ?? null,
          created_at: at,
        })),
      )
      // The same content-addressed ref re-entering in a later turn keeps its first record.
      .onConflict((oc) => oc.columns(['run_id', 'ref']).doNothing())
      .execute();
  },
  async listByRun(runId) {
    const rows = await db
      .selectFrom('helix_agent_run_artifacts')
      .selectAll()
      .where('run_id', '=', runId)
      .orderBy('turn', 'asc')
      .orderBy('created_at', 'asc')
      .orderBy('ref', 'asc')
      .execute();
    return rows.map((row) => ({
      runId: row.run_id,
      ref: row.ref,
      turn: Number(row.turn),
      kind: row.kind as ArtifactKind,
      family: row.family,
      capabilityId: row.capability_id,
      sha256: row.sha256,
      provenance: JSON.parse(row.provenance) as Provenance,
      excerpt: row.excerpt,
      ...(row.title === null ? {} : { title: row.title }),
      createdAt: toMillis(row.created_at),
    }));
  },
});
