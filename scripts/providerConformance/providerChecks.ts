import type { ProbeContext } from '../deploymentProbe/guardedFetch.js';
import { check, type Check } from '../deploymentProbe/report.js';
import { cancelProbeRun } from './cancelProbeRun.js';
import { PROVIDER_NAMES, SETTINGS, type ProbeConfig, type ProviderName } from './config.js';
import { geminiInteractions } from './geminiInteractions.js';
import { openaiResponses } from './openaiResponses.js';
import { invokeProvider, planInvocation, type ProviderWire } from './providerInvocation.js';

const WIRES: Readonly<Record<ProviderName, ProviderWire>> = { openai: openaiResponses, gemini: geminiInteractions };
const KEY_SETTING: Readonly<Record<ProviderName, string>> = {
  openai: SETTINGS.openaiKey[0],
  gemini: SETTINGS.geminiKey[0],
};

type ProviderSettings = NonNullable<ProbeConfig['providers'][ProviderName]>;
type CallDecision =
  | { readonly call: false; readonly reason: Check }
  | { readonly call: true; readonly provider: ProviderSettings; readonly token: string };

/** Why a configured provider is not called, or what to call it with. */
const decideCall = (config: ProbeConfig, name: ProviderName, tokenPassed: boolean): CallDecision => {
  const skip = (reason: Check): CallDecision => ({ call: false, reason });
  const id = `provider.${name}`;
  const provider = config.providers[name];
  if (provider === undefined)
    return skip(check(id, 'not_configured', `set ${KEY_SETTING[name]} to request a provider invocation`));
  const token = config.accessToken;
  if (token === undefined) {
    return skip(check(id, 'not_configured', `the provider invocation also needs ${SETTINGS.accessToken.join(' or ')}`));
  }
  if (!tokenPassed)
    return skip(check(id, 'skipped', 'the access token did not pass initialize, so no provider call was made'));
  if (config.targetIsLoopback && !provider.originOverridden) {
    return skip(
      check(
        id,
        'skipped',
        `${WIRES[name].label} reaches server_url from its own network and cannot reach a loopback target; no provider call was made`,
      ),
    );
  }
  return { call: true, provider, token };
};

/** The invocation, then a cancel of every run it started; a failed cancel is a warning (the run expires after 60 s). */
const invokeAndCancel = async (
  ctx: ProbeContext,
  config: ProbeConfig,
  name: ProviderName,
  provider: ProviderSettings,
  token: string,
): Promise<Check[]> => {
  const id = `provider.${name}`;
  const plan = planInvocation(name, config.target, token, provider.model);
  const outcome = await invokeProvider(WIRES[name], plan, provider, config.providerTimeoutMs);
  const cancelId = `${id}.run_cancelled`;
  if (outcome.runIds.length === 0)
    return [check(id, outcome.status, outcome.detail), check(cancelId, 'skipped', 'no run was started')];
  const failures: string[] = [];
  for (const [index, runId] of outcome.runIds.entries()) {
    const failure = await cancelProbeRun(
      ctx,
      token,
      runId,
      `${plan.arguments.idempotency_key}:cancel-${index + 1}`,
      config.timeoutMs,
    );
    if (failure !== undefined) failures.push(`run ${runId}: ${failure}`);
  }
  const cancelled =
    failures.length === 0
      ? check(cancelId, 'passed', `cancelled with helix_run_cancel, never continued: ${outcome.runIds.join(', ')}`)
      : check(cancelId, 'warning', `${failures.join('; ')}; such a run expires 60 s after its start`);
  return [check(id, outcome.status, outcome.detail), cancelled];
};

/**
 * docs/spec/shared-live-room-requirements.md PCP-06/PCP-07: with a provider key and the access token, one invocation per provider (OpenAI
 * Responses, Gemini Interactions) with Helix as the only remote MCP tool and `helix_run_start` as
 * the only allowed tool. Each starts at most one 60-second, one-step run, which is never continued.
 */
export const providerChecks = async (
  ctx: ProbeContext,
  config: ProbeConfig,
  tokenPassed: boolean,
): Promise<Check[]> => {
  const checks: Check[] = [];
  for (const name of PROVIDER_NAMES) {
    const decision = decideCall(config, name, tokenPassed);
    checks.push(
      ...(decision.call
        ? await invokeAndCancel(ctx, config, name, decision.provider, decision.token)
        : [decision.reason]),
    );
  }
  return checks;
};
