import type { Kysely, Selectable } from 'kysely';
import type { ArtifactKind, Provenance, TurnArtifact } from '../../domain/turn.js';
import type { ArtifactRepository, StoredArtifact } from '../port.js';
import type { AgentRunArtifactsTable, HelixDatabase } from '../schema.js';
import { toMillis } from './columns.js';

const toRow = (runId: string, turn: number, a: TurnArtifact, at: number, status: 'retrieved' | 'admitted') => ({
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
  status,
});

const fromRow = (row: Selectable<AgentRunArtifactsTable>): StoredArtifact => ({
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
});

export const artifactRepository = (db: Kysely<HelixDatabase>): ArtifactRepository => {
  const insert = async (
    runId: string,
    turn: number,
    artifacts: readonly TurnArtifact[],
    at: number,
    status: 'retrieved' | 'admitted',
  ) => {
    if (artifacts.length === 0) return;
    await db
      .insertInto('helix_agent_run_artifacts')
      .values(artifacts.map((a) => toRow(runId, turn, a, at, status)))
      // The same content-addressed ref seen again (another query, a later turn) keeps its first record.
      .onConflict((oc) => oc.columns(['run_id', 'ref']).doNothing())
      .execute();
  };
  const ordered = (runId: string) =>
    db
      .selectFrom('helix_agent_run_artifacts')
      .selectAll()
      .where('run_id', '=', runId)
      .orderBy('turn', 'asc')
      .orderBy('created_at', 'asc')
      .orderBy('ref', 'asc');

  return {
    recordRetrieved: (runId, turn, artifacts, at) => insert(runId, turn, artifacts, at, 'retrieved'),
    async admit(runId, turn, artifacts, at) {
      await insert(runId, turn, artifacts, at, 'admitted');
      if (artifacts.length === 0) return;
      await db
        .updateTable('helix_agent_run_artifacts')
        .set({ status: 'admitted' })
        .where('run_id', '=', runId)
        .where(
          'ref',
          'in',
          artifacts.map((a) => a.ref),
        )
        .execute();
    },
    async listAdmitted(runId) {
      return (await ordered(runId).where('status', '=', 'admitted').execute()).map(fromRow);
    },
    async listRecorded(runId) {
      return (await ordered(runId).execute()).map((row) => ({
        ...fromRow(row),
        status: row.status as 'retrieved' | 'admitted',
      }));
    },
  };
};
