import type { ModelUsage } from '../model/port.js';
import type { Contradiction, PendingQuestion } from './run.js';

export const ARTIFACT_KINDS = ['observation', 'evidence', 'receipt'] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

export interface Provenance {
  readonly source_id: string;
  /** A path or URI naming where the content came from. */
  readonly locator: string;
  readonly span?: { readonly start: number; readonly end: number };
  readonly retrieved_at: string;
  readonly turn: number;
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
}

export interface Claim {
  readonly claim: string;
  readonly refs: readonly string[];
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
  /** Tokens the turn's model calls used, summed; absent when no model ran. */
  readonly usage?: ModelUsage;
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
