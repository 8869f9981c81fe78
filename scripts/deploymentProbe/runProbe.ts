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
 * Reads a probe's configuration. A refusal is printed on stderr with its code (messages name
 * variables, never values) and answers undefined: the caller exits 2 having requested nothing.
 */
export const readConfigOrRefuse = <Config>(
  name: string,
  readConfig: (env: Env) => Config,
  env: Env,
): Config | undefined => {
  try {
    return readConfig(env);
  } catch (err) {
    if (!(err instanceof ProbeConfigError)) throw err;
    process.stderr.write(`${name}: ${err.message} [${err.code}]\n`);
    return undefined;
  }
};

/** The one way a probe prints: the report, redacted, as JSON on stdout and its summary on stderr. */
export const printRedacted = <Report>(
  report: Report,
  secrets: readonly string[],
  summary: (redacted: Report) => string,
): Report => {
  const redacted = redactor(secrets).redact(report) as Report;
  process.stdout.write(`${JSON.stringify(redacted, null, 2)}\n`);
  process.stderr.write(`${summary(redacted)}\n`);
  return redacted;
};

/** A probe bug, whose message may quote a response: printed redacted, exit 1. */
export const reportProbeError = (name: string, err: unknown, secrets: readonly string[]): 1 => {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`${name}: probe error: ${redactor(secrets).redactString(message)}\n`);
  return 1;
};

/**
 * The shared shape of a deployment probe: read the configuration (a refusal is exit 2 and nothing
 * is requested), run the checks, print one redacted typed report on stdout and a summary on
 * stderr, and answer the exit code (0 nothing failed, 1 a check failed).
 */
export const runProbe = async <Config extends ProbeConfigBase>(
  probe: ProbeDefinition<Config>,
  env: Env,
): Promise<number> => {
  const config = readConfigOrRefuse(probe.name, probe.readConfig, env);
  if (config === undefined) return 2;
  let checks: Check[];
  try {
    checks = await probe.runChecks(config);
  } catch (err) {
    // Every check catches its own failures; this is a probe bug.
    return reportProbeError(probe.name, err, config.secrets);
  }
  const report = printRedacted(
    buildReport(probe.schema, config.target, checks, new Date()),
    config.secrets,
    (redacted: ProbeReport) => humanSummary(probe.title, redacted),
  );
  return exitCodeFor(report);
};
