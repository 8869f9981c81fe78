/**
 * `npm run soak [-- --minutes N]` (default 10, at most 60): Helix in a child process on a fresh
 * SQLite file under a steady mixed load (start, continue, inspect, events, MCP inspect) at a bounded
 * rate, its RSS sampled every 10 s; reports whether RSS levels off (bench/soak.ts says how).
 * Progress goes to stderr; the summary to stdout, ending with one JSON line. Exit 0 whatever the
 * figures; 1 if the soak breaks, 2 on bad usage. `npm run bench` runs a one-minute soak with the same code.
 */
import { cpus, loadavg } from 'node:os';
import { measureSoak, type SoakShape } from '../bench/soak.js';
import { describeSoak, soakFields, soakGoalLine, soakLines } from '../bench/soakReport.js';
import { launchTarget } from '../bench/target.js';

const DEFAULT_MINUTES = 10;
const MAX_MINUTES = 60;
const USAGE = `usage: npm run soak [-- --minutes N]   (N from 1 to ${MAX_MINUTES}; default ${DEFAULT_MINUTES})`;

const progress = (message: string): void => {
  process.stderr.write(`${message}\n`);
};

const parseMinutes = (args: readonly string[]): number | string => {
  let text: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--minutes') text = args[++i] ?? '';
    else if (arg.startsWith('--minutes=')) text = arg.slice('--minutes='.length);
    else return `unknown argument ${arg}`;
  }
  if (text === undefined) return DEFAULT_MINUTES;
  const minutes = Number(text);
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > MAX_MINUTES)
    return `--minutes must be a whole number from 1 to ${MAX_MINUTES}, not ${JSON.stringify(text)}`;
  return minutes;
};

const minutes = parseMinutes(process.argv.slice(2));
if (typeof minutes === 'string') {
  process.stderr.write(`${minutes}\n${USAGE}\n`);
  process.exit(2);
}

// The bench's soak rate: well within what Helix serves on two cores, so the soak measures memory, not overload.
const shape: SoakShape = { seconds: minutes * 60, sampleSeconds: 10, requestsPerSecond: 200, maxInFlight: 16 };

const main = async (): Promise<void> => {
  const date = new Date();
  const loadAtStart = loadavg()[0] ?? 0;
  progress(
    `soak: ${minutes} min of mixed load at ${shape.requestsPerSecond} req/s, RSS every ${shape.sampleSeconds} s…`,
  );
  const target = await launchTarget('helix');
  const soak = await measureSoak(target, shape, progress).finally(() => target.stop());
  const processors = cpus();
  const lines = [
    `Helix soak: ${date.toISOString()}, node ${process.version}, ${processors.length} x ${processors[0]?.model.trim() ?? 'unknown'}, load average ${loadAtStart.toFixed(2)} before start`,
    describeSoak(soak),
    ...soakLines(soak),
    soakGoalLine(soak),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  process.stdout.write(
    `${JSON.stringify({ soak: 'helix', date: date.toISOString(), node: process.version, cpus: processors.length, load_average: Number(loadAtStart.toFixed(2)), ...soakFields(soak) })}\n`,
  );
};

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`soak failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
