/**
 * CPU time of processes on this (Linux) machine, from /proc: a server's, PostgreSQL's (every
 * process named `postgres`), and the load generator's own. The bench turns the differences over a
 * load into CPU milliseconds per request, which say where a throughput ceiling comes from.
 */
import { readdir, readFile } from 'node:fs/promises';

/** /proc reports utime and stime in clock ticks, which are 100 per second on Linux. */
const MS_PER_TICK = 10;

interface ProcStat {
  readonly command: string;
  readonly cpuMs: number;
}

const readStat = async (pid: number | string): Promise<ProcStat | undefined> => {
  let stat: string;
  try {
    stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // the process has exited
  }
  const close = stat.lastIndexOf(')');
  // Fields after the parenthesised command name; utime and stime are the 14th and 15th fields.
  const fields = stat.slice(close + 2).split(' ');
  return {
    command: stat.slice(stat.indexOf('(') + 1, close),
    cpuMs: (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK,
  };
};

/** User + system CPU time of one process so far, in ms; 0 once it has exited. */
export const processCpuMs = async (pid: number): Promise<number> => (await readStat(pid))?.cpuMs ?? 0;

/** User + system CPU time of every live process named `postgres` (the server and its backends), in ms. */
export const postgresCpuMs = async (): Promise<number> => {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const stats = await Promise.all(pids.map((pid) => readStat(pid)));
  return stats.reduce((sum, stat) => sum + (stat?.command === 'postgres' ? stat.cpuMs : 0), 0);
};

/** This process's CPU time so far (the load generator), in ms. */
export const ownCpuMs = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
