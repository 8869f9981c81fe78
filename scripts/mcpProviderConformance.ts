/**
 * `npm run mcp:provider-conformance`: the contract's provider conformance probe
 * (docs/spec/helix-agent-api-v1.md, "Provider conformance probe") for a deployed Helix.
 *
 * Without credentials it checks protected-resource metadata, the unauthenticated MCP challenge,
 * GET /mcp and the Device Check metadata and challenge (PCP-09); with CASIMIRBOT_MCP_ACCESS_TOKEN (or HELIX_MCP_ACCESS_TOKEN) it adds an authenticated
 * initialize and tools/list; with OPENAI_API_KEY or GEMINI_API_KEY as well, one real provider
 * invocation each that calls helix_run_start through Helix as a remote MCP tool. It prints one
 * redacted `casimirbot.mcp_provider_conformance.v1` report on stdout and a short summary on
 * stderr. Exit 0: nothing failed; 1: a check failed; 2: bad configuration (nothing was requested).
 */
import { guardedFetch, type ProbeContext } from './deploymentProbe/guardedFetch.js';
import type { Check } from './deploymentProbe/report.js';
import { runProbe } from './deploymentProbe/runProbe.js';
import {
  authenticatedChecks,
  initializePassed,
  notConfiguredChecks,
} from './providerConformance/authenticatedChecks.js';
import { readProbeConfig, REPORT_SCHEMA, SETTINGS, type ProbeConfig } from './providerConformance/config.js';
import { discoveryChecks } from './deploymentProbe/discoveryChecks.js';
import {
  deviceCheckCatalogCheck,
  deviceCheckDiscoveryChecks,
  deviceCheckNotConfigured,
} from './providerConformance/deviceCheckChecks.js';
import { providerChecks } from './providerConformance/providerChecks.js';

const runChecks = async (config: ProbeConfig): Promise<Check[]> => {
  const ctx: ProbeContext = {
    target: config.target,
    fetch: guardedFetch(config.target, config.timeoutMs),
    ...(config.accessToken === undefined ? {} : { accessToken: config.accessToken }),
  };
  const checks = [...(await discoveryChecks(ctx)), ...(await deviceCheckDiscoveryChecks(ctx))];
  const tokenSetting = SETTINGS.accessToken.join(' or ');
  checks.push(
    ...(config.accessToken === undefined
      ? [...notConfiguredChecks(tokenSetting), deviceCheckNotConfigured(tokenSetting)]
      : [
          ...(await authenticatedChecks(ctx, config.accessToken, config.timeoutMs)),
          await deviceCheckCatalogCheck(ctx, config.accessToken),
        ]),
  );
  checks.push(...(await providerChecks(ctx, config, initializePassed(checks))));
  return checks;
};

process.exitCode = await runProbe(
  {
    name: 'mcp:provider-conformance',
    schema: REPORT_SCHEMA,
    title: 'mcp provider conformance',
    readConfig: readProbeConfig,
    runChecks,
  },
  process.env,
);
