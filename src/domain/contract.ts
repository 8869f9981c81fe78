/** Completion contract and budget: the client's bounds on a run, with the contract's defaults. */
export interface CompletionContract {
  readonly min_evidence_refs: number;
  readonly require_terminal_authority: boolean;
  readonly required_output_fields: readonly string[];
  readonly max_unresolved_requirements: number;
  readonly allow_conflicts: boolean;
}

export interface Budget {
  readonly max_steps: number;
  readonly expires_in_seconds: number;
}

export const CONTRACT_DEFAULTS: CompletionContract = {
  min_evidence_refs: 1,
  require_terminal_authority: true,
  required_output_fields: [],
  max_unresolved_requirements: 0,
  allow_conflicts: false,
};

export const BUDGET_DEFAULTS: Budget = { max_steps: 12, expires_in_seconds: 3600 };

export const BUDGET_BOUNDS = {
  max_steps: { min: 1, max: 64 },
  expires_in_seconds: { min: 60, max: 7 * 24 * 3600 },
} as const;

export const CONTRACT_BOUNDS = {
  min_evidence_refs: { min: 0, max: 200 },
  max_unresolved_requirements: { min: 0, max: 200 },
  required_output_fields: { maxItems: 32, maxLength: 64 },
} as const;
