import { randomUUID } from 'node:crypto';
import { boundedStartRequest, checkStartedRun, excerpt } from '../deploymentProbe/boundedRun.js';
import { describeFailure, guardedFetch, readBoundedJson } from '../deploymentProbe/guardedFetch.js';
import type { CheckStatus } from '../deploymentProbe/report.js';
import type { ProviderName, ProviderSettings } from './config.js';

/** The MCP server's name at the provider: OpenAI `server_label`, Gemini `name` (which refuses a hyphen). */
export const MCP_SERVER_NAME = 'helix';
/** The one tool a provider invocation may call. */
export const START_TOOL = 'helix_run_start';

/** What one provider invocation asks the model to do: call START_TOOL once with exactly these arguments. */
export interface InvocationPlan {
  readonly serverUrl: string;
  readonly accessToken: string;
  readonly model: string;
  readonly arguments: { readonly idempotency_key: string; readonly request: ReturnType<typeof boundedStartRequest> };
  readonly instructions: string;
  readonly input: string;
}

/**
 * The explicit idempotency key makes a repeated call replay the same run instead of starting a
 * second one, so even a model that calls twice creates at most one run (docs/spec/shared-live-room-requirements.md PCP-07).
 */
export const planInvocation = (
  provider: ProviderName,
  target: string,
  accessToken: string,
  model: string,
): InvocationPlan => {
  const args = {
    idempotency_key: `helix-conformance-${provider}-${randomUUID()}`,
    request: boundedStartRequest(
      'Provider conformance check: record this bounded run and nothing else. It is never continued.',
    ),
  };
  return {
    serverUrl: `${target}/mcp`,
    accessToken,
    model,
    arguments: args,
    instructions: `You are a conformance probe. Call the ${START_TOOL} tool exactly once with exactly the arguments the user gives, then reply with the run_id it returned. Call no other tool and do not call ${START_TOOL} again.`,
    input: `Arguments: ${JSON.stringify(args)}`,
  };
};

/** One call of START_TOOL as the provider reported it: the tool's parsed output, or its error. */
export type ReportedToolCall = { readonly output: unknown } | { readonly error: string };

/** A provider answer reduced to what the check needs. */
export interface ProviderAnswer {
  readonly calls: readonly ReportedToolCall[];
  /** What the answer held instead, for a detail that explains a missing call. */
  readonly context: string;
  /** Set when the provider reports the whole response as failed (calls made before still count). */
  readonly failure?: string;
}

/** One provider's wire format: where to send the plan, how, and how to read the answer. */
export interface ProviderWire {
  readonly label: string;
  readonly path: string;
  headers(key: string): Record<string, string>;
  body(plan: InvocationPlan): unknown;
  read(body: Record<string, unknown>): ProviderAnswer;
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A tool's text output as JSON when it is JSON, else the text itself (which then fails the run check). */
export const parseToolText = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

/** `HTTP 401 invalid_api_key: …` from an OpenAI `{error:{code,type,message}}` or Google `{error:{code,status,message}}` body. */
const describeHttpFailure = (label: string, status: number, body: unknown): string => {
  const error = isObject(body) && isObject(body.error) ? body.error : {};
  const code = [error.code, error.type, error.status].find((v) => typeof v === 'string');
  const message = typeof error.message === 'string' ? `: ${excerpt(error.message)}` : '';
  return `${label} answered HTTP ${status}${code === undefined ? '' : ` ${code}`}${message}`;
};

export interface InvocationOutcome {
  readonly status: Extract<CheckStatus, 'passed' | 'failed'>;
  readonly detail: string;
  /** Every run the invocation started, so the probe can cancel each. */
  readonly runIds: readonly string[];
}

const judge = (label: string, plan: InvocationPlan, answer: ProviderAnswer): InvocationOutcome => {
  const results = answer.calls.map((call) =>
    'error' in call
      ? { problem: `the ${START_TOOL} call failed: ${excerpt(call.error)}` }
      : checkStartedRun(call.output),
  );
  const runIds = [...new Set(results.flatMap((r) => ('runId' in r ? [r.runId] : [])))];
  const problems = results.flatMap((r) => ('problem' in r ? [r.problem] : []));
  if (answer.failure !== undefined) problems.unshift(answer.failure);
  if (answer.calls.length === 0) problems.push(`${label} reported no ${START_TOOL} call (${answer.context})`);
  if (answer.calls.length > 1)
    problems.push(`${label} called ${START_TOOL} ${answer.calls.length} times; one call expected`);
  if (problems.length > 0) return { status: 'failed', detail: problems.join('; '), runIds };
  return {
    status: 'passed',
    detail: `${label} (${plan.model}) called ${START_TOOL} once through ${plan.serverUrl}: run ${runIds[0]} started at version 1, waiting, max_steps 1, expiring after 60 s`,
    runIds,
  };
};

/** One request to the provider, pinned to its origin; every failure becomes a failed outcome. */
export const invokeProvider = async (
  wire: ProviderWire,
  plan: InvocationPlan,
  provider: ProviderSettings,
  timeoutMs: number,
): Promise<InvocationOutcome> => {
  const failed = (detail: string): InvocationOutcome => ({ status: 'failed', detail, runIds: [] });
  let response: Response;
  let body: unknown;
  try {
    response = await guardedFetch(provider.origin, timeoutMs)(`${provider.origin}${wire.path}`, {
      method: 'POST',
      headers: { ...wire.headers(provider.key), 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(wire.body(plan)),
    });
    body = await readBoundedJson(response);
  } catch (err) {
    return failed(`${wire.label} request failed: ${describeFailure(err)}`);
  }
  if (!response.ok) return failed(describeHttpFailure(wire.label, response.status, body));
  if (!isObject(body)) return failed(`${wire.label} answered HTTP ${response.status} without a JSON object`);
  return judge(wire.label, plan, wire.read(body));
};
