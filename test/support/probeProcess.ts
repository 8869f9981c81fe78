import { once } from 'node:events';
import type { CheckStatus, ProbeReport } from '../../scripts/deploymentProbe/report.js';
import { SETTINGS } from '../../scripts/providerConformance/config.js';
import { spawnTs } from './processes.js';

/** Every setting a deployment probe reads, blanked, so the developer's own environment cannot leak in. */
export const CLEAN_PROBE_ENV = Object.fromEntries(
  Object.values(SETTINGS).flatMap((names) => names.map((name) => [name, ''])),
);
export const LOOPBACK_OPT_IN = { CASIMIRBOT_MCP_CONFORMANCE_ALLOW_LOOPBACK_HTTP: '1' };

export interface ProbeRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly report: ProbeReport | undefined;
  status(id: string): CheckStatus | undefined;
  detail(id: string): string | undefined;
}

export interface ScriptRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a script (`scripts/….ts`) to completion with exactly `env` on top of the test process's. */
export const runScript = async (script: string, env: Record<string, string>): Promise<ScriptRun> => {
  const child = spawnTs(script, [], env);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code: code ?? -1, stdout, stderr };
};

/** Runs a probe script to completion with a clean probe environment plus `env`. */
export const runProbeScript = async (script: string, env: Record<string, string>): Promise<ProbeRun> => {
  const { code, stdout, stderr } = await runScript(script, { ...CLEAN_PROBE_ENV, ...env });
  const report = stdout.trim() === '' ? undefined : (JSON.parse(stdout) as ProbeReport);
  const find = (id: string) => report?.checks.find((c) => c.id === id);
  return {
    code,
    stdout,
    stderr,
    report,
    status: (id) => find(id)?.status,
    detail: (id) => find(id)?.detail,
  };
};
