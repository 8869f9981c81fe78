export const CHECK_STATUSES = ['passed', 'failed', 'skipped', 'not_configured', 'warning'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

export interface Check {
  readonly id: string;
  readonly status: CheckStatus;
  readonly detail: string;
}

/** The typed report every deployment probe prints; `schema` names the probe. */
export interface ProbeReport<Schema extends string = string> {
  readonly schema: Schema;
  readonly target: string;
  readonly generated_at: string;
  readonly checks: readonly Check[];
  /** One count per status, so the counts always add up to the number of checks. */
  readonly summary: Readonly<Record<CheckStatus, number>>;
}

export const check = (id: string, status: CheckStatus, detail: string): Check => ({ id, status, detail });

export const buildReport = <Schema extends string>(
  schema: Schema,
  target: string,
  checks: readonly Check[],
  now: Date,
): ProbeReport<Schema> => {
  const summary = Object.fromEntries(
    CHECK_STATUSES.map((status) => [status, checks.filter((c) => c.status === status).length]),
  );
  return { schema, target, generated_at: now.toISOString(), checks, summary: summary as Record<CheckStatus, number> };
};

/** Exit 1 only for a failed check: warnings, skips and unconfigured checks do not fail the probe. */
export const exitCodeFor = (report: ProbeReport): 0 | 1 => (report.summary.failed > 0 ? 1 : 0);

export const humanSummary = (title: string, report: ProbeReport): string => {
  const counts = CHECK_STATUSES.filter((s) => report.summary[s] > 0).map((s) => `${report.summary[s]} ${s}`);
  const lines = report.checks.map(
    (c) => `  ${c.status.padEnd(14)} ${c.id}${c.status === 'passed' ? '' : `: ${c.detail}`}`,
  );
  return [`${title} for ${report.target}: ${counts.join(', ')}`, ...lines].join('\n');
};
