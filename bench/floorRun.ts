/**
 * The floor's run: the few fields its two routes need, and the codec for the `helix_agent_runs`
 * columns it reads and writes.
 */

/** Helix's default budget (max_steps 12); the continue loop starts a new run after this many turns. */
export const FLOOR_STEPS_PER_RUN = 12;
export const RUN_TTL_MS = 3600 * 1000;

export interface FloorRun {
  readonly runId: string;
  readonly objective: string;
  readonly objectiveHash: string;
  readonly version: number;
  readonly stepsUsed: number;
  readonly lastEventSeq: number;
  readonly lifecycle: string;
  readonly completion: string;
  readonly turnId: string | null;
  readonly expiresAt: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly completedAt: number | null;
}

export interface RunRow {
  run_id: string;
  owner_hash: string;
  objective: string;
  objective_hash: string;
  lifecycle_status: string;
  completion_status: string;
  version: number;
  steps_used: number;
  expires_at: number;
  last_event_seq: number;
  turn_id: string | null;
  state: string;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
}

export const fromRow = (row: RunRow): FloorRun => ({
  runId: row.run_id,
  objective: row.objective,
  objectiveHash: row.objective_hash,
  version: row.version,
  stepsUsed: row.steps_used,
  lastEventSeq: row.last_event_seq,
  lifecycle: row.lifecycle_status,
  completion: row.completion_status,
  turnId: row.turn_id,
  expiresAt: row.expires_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  completedAt: row.completed_at,
});

/** The fields of Helix's `state` column that the run view shows. */
export interface FloorState {
  readonly contract: unknown;
  readonly constraints: readonly unknown[];
  readonly databaseScope: readonly unknown[];
  readonly unresolvedRequirements: readonly string[];
  readonly contradictions: readonly unknown[];
  readonly pendingQuestions: readonly unknown[];
  readonly latestResult: unknown;
}

/** A state shaped and sized like Helix's `state` column for a run driven by the no-op executor. */
export const floorState = (turn: number): FloorState & Record<string, unknown> => ({
  contract: {
    min_evidence_refs: 1,
    require_terminal_authority: true,
    required_output_fields: [],
    max_unresolved_requirements: 0,
    allow_conflicts: false,
  },
  constraints: [],
  databaseScope: [],
  budget: { max_steps: FLOOR_STEPS_PER_RUN, expires_in_seconds: RUN_TTL_MS / 1000 },
  unresolvedRequirements: turn === 0 ? [] : ['no_evidence_found'],
  contradictions: [],
  pendingQuestions: [],
  answers: [],
  evidenceRefs: [],
  supportedClaims: [],
  latestResult:
    turn === 0
      ? null
      : {
          turn,
          outcome: 'succeeded',
          text: null,
          supporting_evidence_refs: [],
          output_fields: {},
          terminal_candidate_ref: null,
          writer: null,
          failure_code: null,
        },
});
