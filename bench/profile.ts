/**
 * `npm run bench:profile [-- --label <name>] [--only <paths>] [--seconds <n>]`: where the time goes.
 *
 * For each hot path (start, continue, inspect, events, mcp) it starts `helix serve` from `dist/`
 * under `node --cpu-prof` on a fresh SQLite file, drives that one path for a while (autocannon on
 * keep-alive connections; continue is one sequential client, as in the bench), stops the server
 * and reads the profile. It reports the requests served, the server's CPU time per request (from
 * /proc/<pid>/stat), and the top self-time costs by area and by function as shares of the busy
 * (non-idle) time. Start-up is inside the profile: the load runs long enough that it is a few
 * percent of it.
 *
 * The report goes to stdout, and into docs/performance-profiles.md under its label (default
 * `current`), replacing only that label's section, so a `before` and an `after` can sit side by side.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { idempotencyKeys, startRun } from './apiClient.js';
import { turnDriver } from './continueLatency.js';
import { summarizeProfile, type Cost, type CpuProfile, type ProfileSummary } from './cpuProfile.js';
import { loadOf, mcpInspectEndpoint, probe } from './mcpThroughput.js';
import { processCpuMs } from './processCpu.js';
import { preparedRun, readLoad } from './readThroughput.js';
import { startLoad } from './startThroughput.js';
import { markdownTable } from './tables.js';
import { launchTarget, type Target } from './target.js';
import type { Load } from './throughputRounds.js';

export const PROFILE_PATHS = ['start', 'continue', 'inspect', 'events', 'mcp'] as const;
type ProfilePath = (typeof PROFILE_PATHS)[number];

const CONNECTIONS = 10;
const DEFAULT_SECONDS = 8;
const TOP = 10;
const DOC = fileURLToPath(new URL('../docs/performance-profiles.md', import.meta.url));
const USAGE = `usage: npm run bench:profile [-- --label <name>] [--only <paths>] [--seconds <n>]   (paths: ${PROFILE_PATHS.join(', ')})`;

interface PathProfile {
  readonly path: ProfilePath;
  readonly requests: number;
  readonly seconds: number;
  readonly cpuMsPerRequest: number;
  readonly summary: ProfileSummary;
}

class UsageError extends Error {}

interface Options {
  readonly label: string;
  readonly paths: readonly ProfilePath[];
  readonly seconds: number;
}

const parseOptions = (args: readonly string[]): Options => {
  let label = 'current';
  let paths: readonly ProfilePath[] = PROFILE_PATHS;
  let seconds = DEFAULT_SECONDS;
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = (args[i] ?? '').split('=', 2) as [string, string | undefined];
    const value = inline ?? args[++i];
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    if (flag === '--label') {
      if (!/^[a-z0-9][a-z0-9-]{0,39}$/.test(value)) throw new UsageError('--label: lower-case letters, digits and -');
      label = value;
    } else if (flag === '--only') {
      const names = value.split(',').map((n) => n.trim());
      const unknown = names.filter((n) => !(PROFILE_PATHS as readonly string[]).includes(n));
      if (unknown.length > 0) throw new UsageError(`unknown path(s): ${unknown.join(', ')}`);
      paths = PROFILE_PATHS.filter((p) => names.includes(p));
    } else if (flag === '--seconds') {
      seconds = Number(value);
      if (!Number.isInteger(seconds) || seconds < 2 || seconds > 120) throw new UsageError('--seconds: 2..120');
    } else throw new UsageError(`unknown argument ${flag}`);
  }
  return { label, paths, seconds };
};

/** Drives `load` once (or the continue loop) for `seconds`; resolves to the successful requests. */
const drive = async (path: ProfilePath, target: Target, seconds: number): Promise<number> => {
  const autocannonLoad = async (load: Load): Promise<number> => {
    const result = await load(seconds);
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${path}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`);
    return result['2xx'];
  };
  if (path === 'start') return autocannonLoad(startLoad(target, CONNECTIONS));
  if (path === 'inspect' || path === 'events')
    return autocannonLoad(readLoad(target, path, await preparedRun(target), CONNECTIONS));
  if (path === 'mcp') {
    const endpoint = mcpInspectEndpoint(target, (await startRun(target, idempotencyKeys('profile')())).runId);
    await probe(endpoint);
    return autocannonLoad(loadOf(endpoint, CONNECTIONS));
  }
  const turn = turnDriver(target, 12);
  const until = performance.now() + seconds * 1000;
  let turns = 0;
  while (performance.now() < until) {
    await turn();
    turns++;
  }
  return turns;
};

const profilePath = async (path: ProfilePath, seconds: number): Promise<PathProfile> => {
  const dir = await mkdtemp(join(tmpdir(), 'helix-profile-'));
  try {
    const target = await launchTarget('helix', { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${dir}`] });
    let requests: number;
    let cpu: number;
    try {
      const before = await processCpuMs(target.pid);
      requests = await drive(path, target, seconds);
      cpu = (await processCpuMs(target.pid)) - before;
    } finally {
      await target.stop();
    }
    const file = (await readdir(dir)).find((name) => name.endsWith('.cpuprofile'));
    if (file === undefined) throw new Error(`${path}: the server wrote no .cpuprofile`);
    const profile = JSON.parse(await readFile(join(dir, file), 'utf8')) as CpuProfile;
    return {
      path,
      requests,
      seconds,
      cpuMsPerRequest: cpu / Math.max(1, requests),
      summary: summarizeProfile(profile, TOP),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

const percent = (share: number): string => `${(share * 100).toFixed(1)} %`;

const costRows = (costs: readonly Cost[]): string[][] => costs.map((c) => [c.name, percent(c.share)]);

const renderPath = (p: PathProfile): string =>
  [
    `### ${p.path}`,
    '',
    `${p.requests} requests in ${p.seconds} s (${(p.requests / p.seconds).toFixed(0)} req/s under the profiler), ` +
      `server CPU ${p.cpuMsPerRequest.toFixed(3)} ms per request, event loop idle ` +
      `${percent(p.summary.idleMs / Math.max(1, p.summary.totalMs))} of ${(p.summary.totalMs / 1000).toFixed(1)} s.`,
    '',
    markdownTable([['area', 'self time (share of busy)'], ...costRows(p.summary.byArea)]),
    '',
    markdownTable([['function', 'self time (share of busy)'], ...costRows(p.summary.byFunction)]),
  ].join('\n');

export const renderSection = (label: string, profiles: readonly PathProfile[], when: Date): string => {
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown'}, Node ${process.version}, load average ${(loadavg()[0] ?? 0).toFixed(2)}`;
  return [
    `<!-- profile:${label} -->`,
    `## Profile: ${label}`,
    '',
    `Measured ${when.toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine}; \`npm run bench:profile -- --label ${label}\`.`,
    '',
    ...profiles.flatMap((p) => [renderPath(p), '']),
    `<!-- /profile:${label} -->`,
  ].join('\n');
};

const DOC_HEADER = `# Where the time goes: CPU profiles of the hot paths

Generated by \`npm run bench:profile\` (bench/profile.ts); each section is replaced only by a run
with the same label. Self time is the time a function spent in its own code (a native call such
as a SQLite statement counts towards the JavaScript function that made it: Kysely's
\`executeQuery\` holds the statements' execution). Shares are of the time the server was busy;
idle time is reported beside them. How the figures were used is in [performance.md](performance.md).
`;

/** The doc with `section` in place of the same label's old one (or appended). */
export const withSection = (doc: string, label: string, section: string): string => {
  const start = doc.indexOf(`<!-- profile:${label} -->`);
  const endMarker = `<!-- /profile:${label} -->`;
  const end = doc.indexOf(endMarker);
  if (start === -1 || end === -1) return `${doc.trimEnd()}\n\n${section}\n`;
  return `${doc.slice(0, start)}${section}${doc.slice(end + endMarker.length)}`;
};

const main = async (options: Options): Promise<void> => {
  const when = new Date();
  const profiles: PathProfile[] = [];
  for (const path of options.paths) {
    process.stderr.write(`profiling ${path} for ${options.seconds} s…\n`);
    const profile = await profilePath(path, options.seconds);
    process.stderr.write(`  ${profile.requests} requests, ${profile.cpuMsPerRequest.toFixed(3)} ms CPU per request\n`);
    profiles.push(profile);
  }
  const section = renderSection(options.label, profiles, when);
  process.stdout.write(`${section}\n`);
  const doc = await readFile(DOC, 'utf8').catch(() => DOC_HEADER);
  await writeFile(DOC, withSection(doc, options.label, section));
  process.stderr.write(`wrote the "${options.label}" section of docs/performance-profiles.md\n`);
};

let options: Options;
try {
  options = parseOptions(process.argv.slice(2));
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  process.stderr.write(`${err.message}\n${USAGE}\n`);
  process.exit(2);
}
main(options).catch((err: unknown) => {
  process.stderr.write(`profile failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
