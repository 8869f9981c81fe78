import type { z } from 'zod';
import type { LogicalDataScope } from '../domain/scopes.js';
import type { TurnArtifact } from '../domain/turn.js';

/** What a capability call may use: the run and turn it serves, the turn's abort signal, a clock. */
export interface CapabilityContext {
  readonly runId: string;
  readonly turn: number;
  readonly signal: AbortSignal;
  readonly now: () => number;
}

/** A hit a search-like capability found, for the executor to rank; `ref` names its artifact. */
export interface CapabilityHit {
  readonly ref: string;
  readonly title: string;
  readonly text: string;
  /** Source-native relevance (bm25, engine rank…); larger is better; only comparable within one call. */
  readonly score: number;
  /** Stable identity of the underlying document (for contradiction checks across sources). */
  readonly documentId: string;
  /** The passage's heading path (`Variables › gc.auto`), where the source has one. */
  readonly heading?: string;
}

export interface CapabilityResult {
  /** Observation / evidence / receipt artifacts with content hash and provenance. */
  readonly artifacts: readonly TurnArtifact[];
  /** Ranked hits for search capabilities; empty for reads. */
  readonly hits: readonly CapabilityHit[];
}

/**
 * A read-only capability admitted through a logical data scope. The id is code-owned and must
 * appear in the scope catalog (src/domain/scopeCatalog.ts); configuration can only switch it on.
 */
export interface Capability<I = unknown> {
  readonly id: string;
  readonly scope: LogicalDataScope;
  readonly family: string;
  readonly kind: 'search' | 'read';
  readonly description: string;
  readonly input: z.ZodType<I>;
  execute(input: I, context: CapabilityContext): Promise<CapabilityResult>;
  /**
   * Refuses a turn before it is claimed, with the typed HelixError the call itself would fail with
   * (the bound room lane, BRE-04): nothing is spent on a turn that cannot read its evidence.
   */
  precheck?(context: PrecheckContext): Promise<void>;
  /**
   * How often words occur in what this capability searches, for the answer contract's focus
   * weights (src/domain/answerContract/focusTerms.ts). Only a search over a corpus it holds has one.
   */
  termStatistics?(words: readonly string[]): Promise<TermStatistics>;
}

export interface TermStatistics {
  /** Searchable units (passages). */
  readonly units: number;
  /** Per word, the units it occurs in; a word the engine cannot look up is absent. */
  readonly frequencies: ReadonlyMap<string, number>;
}

export interface PrecheckContext {
  readonly runId: string;
  readonly now: () => number;
}
