import type { TurnFailureDetail } from './turnFailures.js';
import { addUsage, ZERO_USAGE, type ModelUsage } from './usage.js';
import type { Claim, Contradiction, PendingQuestion } from './run.js';

export const ARTIFACT_KINDS = ['observation', 'evidence', 'receipt'] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

export interface Provenance {
  readonly source_id: string;
  /** A path or URI naming where the content came from. */
  readonly locator: string;
  readonly span?: { readonly start: number; readonly end: number };
  readonly retrieved_at: string;
  readonly turn: number;
  /** Set on what a room source observed (bound room evidence, the environment probe). */
  readonly room_observation?: RoomObservationProvenance;
}

/**
 * ING-03, BRE-07 (docs/spec/shared-live-room-requirements.md): the exact identity of the room
 * observation an artifact projects. Never the producer epoch nor any credential. The observation
 * is current-turn evidence that authorizes nothing until it re-enters the solver path, and the
 * lane never acts in the world.
 */
export interface RoomObservationProvenance {
  readonly observation_id: string;
  readonly room_id: string;
  readonly source_id: string;
  readonly world_id: string;
  readonly profile_id: string;
  readonly profile_version: number;
  readonly profile_hash: string;
  readonly manifest_id: string;
  readonly manifest_hash: string;
  readonly request_id: string;
  readonly observed_at: string;
  readonly received_at: string;
  readonly reentry_required: true;
  readonly execution_enabled: false;
}

/** One artifact produced by a capability call during a turn. */
export interface TurnArtifact {
  readonly ref: string;
  readonly kind: ArtifactKind;
  readonly family: string;
  readonly capabilityId: string;
  readonly sha256: string;
  readonly provenance: Provenance;
  readonly excerpt: string;
  readonly title?: string;
}

/** What an executor proposes as the answer; it is authorized (or not) by the service. */
export interface TerminalCandidate {
  readonly ref: string;
  readonly writer: string;
  readonly text: string;
  readonly textSha256: string;
  readonly supportingRefs: readonly string[];
  readonly outputFields: Readonly<Record<string, unknown>>;
  /**
   * The text is verbatim sentences of its supporting passages (the extractive executor), so its
   * values are grounded by construction; a written answer's values are checked against what was read.
   */
  readonly quotesOnly?: true;
}

/** The result of one solver turn, before re-entry audit, terminal authority and completion. */
export interface TurnOutcome {
  readonly status: 'succeeded' | 'failed';
  readonly artifacts: readonly TurnArtifact[];
  /** Evidence families the executor explicitly reports satisfied in this turn. */
  readonly satisfiedFamilies: readonly string[];
  readonly resolvedRequirements: readonly string[];
  readonly unresolvedRequirements: readonly string[];
  readonly contradictions: readonly Contradiction[];
  readonly questions: readonly PendingQuestion[];
  readonly terminalCandidates: readonly TerminalCandidate[];
  readonly supportedClaims: readonly Claim[];
  readonly failureCode?: string;
  /** Set on a failed turn whose provider stated why (run view `latest_result.failure_detail`). */
  readonly failureDetail?: TurnFailureDetail;
  /** Tokens the turn's model calls used, summed; absent when no model ran. The service sets it from the turn's UsageMeter. */
  readonly usage?: ModelUsage;
}

/**
 * A turn's token usage, added to as each model call completes. The service owns it, so a turn cut
 * short by its deadline or an error still records what it spent (the executor's outcome is lost then).
 */
export class UsageMeter {
  private sum: ModelUsage = ZERO_USAGE;
  private calls = 0;

  add(usage: ModelUsage): void {
    this.sum = addUsage(this.sum, usage);
    this.calls += 1;
  }

  get total(): ModelUsage {
    return this.sum;
  }

  /** Whether any model call completed this turn (a turn without a model records no usage at all). */
  get used(): boolean {
    return this.calls > 0;
  }
}

/** Token usage as the closing event of a turn records it (snake_case, like every event field). */
export const usageEventData = (usage: ModelUsage) => ({
  input_tokens: usage.inputTokens,
  cached_input_tokens: usage.cachedInputTokens,
  cache_write_tokens: usage.cacheWriteTokens,
  output_tokens: usage.outputTokens,
  reasoning_tokens: usage.reasoningTokens,
  total_tokens: usage.totalTokens,
});

export const emptyOutcome = (overrides: Partial<TurnOutcome> = {}): TurnOutcome => ({
  status: 'succeeded',
  artifacts: [],
  satisfiedFamilies: [],
  resolvedRequirements: [],
  unresolvedRequirements: [],
  contradictions: [],
  questions: [],
  terminalCandidates: [],
  supportedClaims: [],
  ...overrides,
});
