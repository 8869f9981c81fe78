import { once } from 'node:events';
import type { CheckStatus, ProbeReport } from '../../scripts/deploymentProbe/report.js';
import { SETTINGS } from '../../scripts/providerConformance/config.js';
import { spawnTs } from './processes.js';

/** Every setting a deployment probe reads, blanked, so the developer's own environment cannot leak in. */
export const CLEAN_PROBE_ENV = Object.fromEntries(
  Object.values(SETTINGS).flatMap((names) => names.map((name) => [name, ''])),
);
export const LOOPBACK_OPT_IN = { CASIMIRBOT_MCP_CONFORMANCE_ALLOW_LOOPBACK_HTTP: '1' };

export interface ScriptRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A script run whose stdout is one JSON report of items (checks, steps) with an id, a status and a detail. */
export interface ReportRun<Report, Status> extends ScriptRun {
  readonly report: Report | undefined;
  status(id: string): Status | undefined;
  detail(id: string): string | undefined;
}

export type ProbeRun = ReportRun<ProbeReport, CheckStatus>;

/** Runs a script (`scripts/….ts`) to completion with `env` on top of the test process's environment. */
const runScript = async (script: string, env: Record<string, string>): Promise<ScriptRun> => {
  const child = spawnTs(script, [], env);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code: code ?? -1, stdout, stderr };
};

/** Runs a reporting script to completion and parses its report; `itemsOf` names the report's items. */
export const runReportingScript = async <Report, Item extends { id: string; status: string; detail: string }>(
  script: string,
  env: Record<string, string>,
  itemsOf: (report: Report) => readonly Item[],
): Promise<ReportRun<Report, Item['status']>> => {
  const { code, stdout, stderr } = await runScript(script, env);
  const report = stdout.trim() === '' ? undefined : (JSON.parse(stdout) as Report);
  const find = (id: string) => (report === undefined ? undefined : itemsOf(report).find((item) => item.id === id));
  return { code, stdout, stderr, report, status: (id) => find(id)?.status, detail: (id) => find(id)?.detail };
};

/** Runs a probe script to completion with a clean probe environment plus `env`. */
export const runProbeScript = (script: string, env: Record<string, string>): Promise<ProbeRun> =>
  runReportingScript(script, { ...CLEAN_PROBE_ENV, ...env }, (report: ProbeReport) => report.checks);
