import { CHECK_STATUSES, type Check, type CheckStatus } from '../deploymentProbe/report.js';
import { HARNESS_SETTINGS, type HarnessConfig } from './config.js';
import { MANUAL_CHECKPOINTS, PRECONDITIONS, STEPS, type ManualCheckpoint, type PlannedStep } from './plan.js';

/** docs/spec/shared-live-room-requirements.md HAR-02 ([ref] of §22). */
export const HARNESS_SCHEMA = 'helix.shared_live_room.live_acceptance.v1';

/** A check's statuses plus `planned`: a dry-run step that would run with the current settings. */
export const STEP_STATUSES = ['planned', ...CHECK_STATUSES] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

export interface StepReport extends PlannedStep {
  readonly status: StepStatus;
  readonly detail: string;
}

export const CLEANUP_STATUSES = ['not_run', 'not_needed', 'completed', 'failed'] as const;
export type CleanupStatus = (typeof CLEANUP_STATUSES)[number];

export interface AcceptanceReport {
  readonly schema: typeof HARNESS_SCHEMA;
  readonly mode: 'dry_run' | 'network';
  readonly generated_at: string;
  readonly target: string;
  readonly settings: Readonly<Record<string, string | number | boolean>>;
  readonly preconditions: readonly string[];
  /** What is missing for a complete automated run, named by variable; empty when nothing is. */
  readonly to_complete: readonly string[];
  readonly steps: readonly StepReport[];
  readonly manual_checkpoints: readonly ManualCheckpoint[];
  /** The room the harness created or replayed: retained on purpose (RREST-11). */
  readonly retained_room_id: string | null;
  readonly cleanup: { readonly status: CleanupStatus; readonly detail: string };
  readonly summary: Readonly<Record<StepStatus, number>>;
  /** Every automated step ran without failing and cleanup succeeded; the manual checkpoints remain. */
  readonly complete: boolean;
}

/** What a network run found; the dry run has none of it. */
export interface Outcome {
  readonly checks: readonly Check[];
  readonly roomId: string | undefined;
  readonly cleanup: { readonly status: CleanupStatus; readonly detail: string };
}

const missingFor = (config: HarnessConfig): string[] => [
  ...(config.network ? [] : [`${HARNESS_SETTINGS.network}=1 (bounded network requests)`]),
  ...(config.loopbackHttpNeedsOptIn ? [`${HARNESS_SETTINGS.allowLoopbackHttp}=1 (plain http to loopback)`] : []),
  ...(config.accessToken === undefined ? [`${HARNESS_SETTINGS.accessToken} (the OAuth bearer)`] : []),
  ...(config.allowMutation ? [] : [`${HARNESS_SETTINGS.allowMutation}=1 (create, bind, unbind, cancel)`]),
];

/** A step the settings rule out, and the variable that would enable it. */
const unconfigured = (config: HarnessConfig, step: PlannedStep): string | undefined => {
  if (step.needs !== 'network' && config.accessToken === undefined) return `set ${HARNESS_SETTINGS.accessToken}`;
  if (step.needs === 'mutation' && !config.allowMutation) return `set ${HARNESS_SETTINGS.allowMutation}=1`;
  return undefined;
};

const plannedSteps = (config: HarnessConfig): StepReport[] =>
  STEPS.map((step) => {
    const missing = unconfigured(config, step);
    return missing === undefined
      ? { ...step, status: 'planned', detail: 'dry run: nothing was requested' }
      : { ...step, status: 'not_configured', detail: missing };
  });

const outcomeSteps = (config: HarnessConfig, checks: readonly Check[]): StepReport[] =>
  STEPS.map((step) => {
    const missing = unconfigured(config, step);
    if (missing !== undefined) return { ...step, status: 'not_configured', detail: missing };
    const found = checks.find((c) => c.id === step.id);
    return found === undefined
      ? { ...step, status: 'skipped', detail: 'not reached' }
      : { ...step, status: found.status, detail: found.detail };
  });

const COMPLETE_STATUSES: readonly StepStatus[] = ['passed', 'warning'] satisfies readonly CheckStatus[];

export const buildAcceptanceReport = (
  config: HarnessConfig,
  outcome: Outcome | undefined,
  now: Date,
): AcceptanceReport => {
  const steps = outcome === undefined ? plannedSteps(config) : outcomeSteps(config, outcome.checks);
  const cleanup = outcome?.cleanup ?? { status: 'not_run', detail: 'dry run' };
  const summary = Object.fromEntries(STEP_STATUSES.map((s) => [s, steps.filter((x) => x.status === s).length]));
  return {
    schema: HARNESS_SCHEMA,
    mode: outcome === undefined ? 'dry_run' : 'network',
    generated_at: now.toISOString(),
    target: config.target,
    settings: {
      network: config.network,
      allow_loopback_http: config.loopbackOptIn,
      access_token: config.accessToken === undefined ? 'not_configured' : 'configured',
      allow_mutation: config.allowMutation,
      require_complete: config.requireComplete,
      request_timeout_ms: config.timeoutMs,
      total_timeout_ms: config.totalTimeoutMs,
      cleanup_reserve_ms: config.cleanupReserveMs,
      room_idempotency_key: config.roomIdempotencyKey,
      room_idempotency_key_source: config.roomIdempotencyKeySource,
    },
    preconditions: PRECONDITIONS,
    to_complete: missingFor(config),
    steps,
    manual_checkpoints: MANUAL_CHECKPOINTS,
    retained_room_id: outcome?.roomId ?? null,
    cleanup,
    summary: summary as Record<StepStatus, number>,
    complete:
      outcome !== undefined &&
      steps.every((s) => COMPLETE_STATUSES.includes(s.status)) &&
      (cleanup.status === 'completed' || cleanup.status === 'not_needed'),
  };
};

/** 1: a step or the cleanup failed (a release failure, HAR-12); 3: partial under REQUIRE_COMPLETE (HAR-10). */
export const acceptanceExitCode = (report: AcceptanceReport, requireComplete: boolean): 0 | 1 | 3 => {
  if (report.summary.failed > 0 || report.cleanup.status === 'failed') return 1;
  if (requireComplete && !report.complete) return 3;
  return 0;
};

export const acceptanceSummary = (report: AcceptanceReport): string => {
  const counts = STEP_STATUSES.filter((s) => report.summary[s] > 0).map((s) => `${report.summary[s]} ${s}`);
  const lines = report.steps.map(
    (s) => `  ${s.status.padEnd(14)} ${s.id}${s.status === 'passed' || s.status === 'planned' ? '' : `: ${s.detail}`}`,
  );
  return [
    `shared room live acceptance (${report.mode}) for ${report.target}: ${counts.join(', ')}`,
    ...lines,
    `  cleanup: ${report.cleanup.status}${report.cleanup.detail === '' ? '' : ` (${report.cleanup.detail})`}`,
    `  ${report.manual_checkpoints.length} manual checkpoints not automated; complete: ${report.complete}`,
  ].join('\n');
};
