import { redactor } from './redact.js';
import { buildReport, exitCodeFor, humanSummary, type Check, type ProbeReport } from './report.js';
import { ProbeConfigError, type Env } from './settings.js';

/** What one probe adds to the shared command-line shape. */
export interface ProbeDefinition<Config extends ProbeConfigBase> {
  /** The npm script name, prefixing every stderr line. */
  readonly name: string;
  readonly schema: string;
  /** The first line of the stderr summary, e.g. "production smoke". */
  readonly title: string;
  readConfig(env: Env): Config;
  runChecks(config: Config): Promise<Check[]>;
}

export interface ProbeConfigBase {
  readonly target: string;
  /** Every configured credential value, for redaction. */
  readonly secrets: readonly string[];
}

/**
 * The shared shape of a deployment probe: read the configuration (a refusal is exit 2 and nothing
 * is requested), run the checks, print one redacted typed report on stdout and a summary on
 * stderr, and answer the exit code (0 nothing failed, 1 a check failed).
 */
export const runProbe = async <Config extends ProbeConfigBase>(
  probe: ProbeDefinition<Config>,
  env: Env,
): Promise<number> => {
  let config: Config;
  try {
    config = probe.readConfig(env);
  } catch (err) {
    if (!(err instanceof ProbeConfigError)) throw err;
    process.stderr.write(`${probe.name}: ${err.message} [${err.code}]\n`);
    return 2;
  }
  const { redact, redactString } = redactor(config.secrets);
  let checks: Check[];
  try {
    checks = await probe.runChecks(config);
  } catch (err) {
    // Every check catches its own failures; this is a probe bug, and its message may quote a response.
    process.stderr.write(
      `${probe.name}: probe error: ${redactString(err instanceof Error ? err.message : String(err))}\n`,
    );
    return 1;
  }
  const report = redact(buildReport(probe.schema, config.target, checks, new Date())) as ProbeReport;
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  process.stderr.write(`${humanSummary(probe.title, report)}\n`);
  return exitCodeFor(report);
};
