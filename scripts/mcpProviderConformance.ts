/**
 * `npm run mcp:provider-conformance`: the contract's provider conformance probe
 * (helix-agent-api-v1, "Provider conformance probe") for a deployed Helix.
 *
 * Without credentials it checks protected-resource metadata, the unauthenticated MCP challenge and
 * GET /mcp; with CASIMIRBOT_MCP_ACCESS_TOKEN (or HELIX_MCP_ACCESS_TOKEN) it adds an authenticated
 * initialize and tools/list. It prints one redacted `casimirbot.mcp_provider_conformance.v1`
 * report on stdout and a short summary on stderr. Exit 0: nothing failed; 1: a check failed;
 * 2: bad configuration (nothing was requested).
 */
import { authenticatedChecks, notConfiguredChecks } from './providerConformance/authenticatedChecks.js';
import { ProbeConfigError, readProbeConfig, SETTINGS, type ProbeConfig } from './providerConformance/config.js';
import { discoveryChecks, type ProbeContext } from './providerConformance/discoveryChecks.js';
import { guardedFetch } from './providerConformance/guardedFetch.js';
import { providerChecks } from './providerConformance/providerChecks.js';
import { redactor } from './providerConformance/redact.js';
import { buildReport, exitCodeFor, humanSummary, type Check, type ConformanceReport } from './providerConformance/report.js';

const runChecks = async (config: ProbeConfig): Promise<Check[]> => {
  const ctx: ProbeContext = { target: config.target, fetch: guardedFetch(config.target, config.timeoutMs) };
  const checks = await discoveryChecks(ctx);
  checks.push(
    ...(config.accessToken === undefined
      ? notConfiguredChecks(SETTINGS.accessToken.join(' or '))
      : await authenticatedChecks(ctx, config.accessToken, config.timeoutMs)),
  );
  checks.push(...providerChecks(config));
  return checks;
};

const main = async (): Promise<number> => {
  let config: ProbeConfig;
  try {
    config = readProbeConfig(process.env);
  } catch (err) {
    if (!(err instanceof ProbeConfigError)) throw err;
    process.stderr.write(`mcp:provider-conformance: ${err.message} [${err.code}]\n`);
    return 2;
  }
  const { redact, redactString } = redactor(config.secrets);
  let checks: Check[];
  try {
    checks = await runChecks(config);
  } catch (err) {
    // Every check catches its own failures; this is a probe bug, and its message may quote a response.
    process.stderr.write(`mcp:provider-conformance: probe error: ${redactString(err instanceof Error ? err.message : String(err))}\n`);
    return 1;
  }
  const report = redact(buildReport(config.target, checks, new Date())) as ConformanceReport;
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  process.stderr.write(`${humanSummary(report)}\n`);
  return exitCodeFor(report);
};

process.exitCode = await main();
