import type { TurnArtifact } from '../../domain/turn.js';
import {
  generate,
  ModelError,
  MODEL_OUTPUT_LIMITS,
  type ModelItem,
  type ModelSelection,
  type ModelUsage,
} from '../../model/port.js';
import type { TurnInput } from '../executor.js';
import { MODEL_INSTRUCTIONS, SUBMIT_NOW, turnMessage } from './prompt.js';
import type { ModelRequest, ModelResponse } from '../../model/port.js';
import { ATTR, inSpan } from '../../telemetry/instruments.js';
import { parseSubmittedResult, RESULT_TOOL_NAME, resultToolSpec, type SubmittedResult } from './resultTool.js';
import { digestError, digestResult } from './toolDigest.js';
import { buildToolTable } from './toolNames.js';

export interface LoopResult {
  /** The model's accepted submission, or null when it never submitted a valid one. */
  readonly submitted: SubmittedResult | null;
  /** Every artifact retrieved this turn, first retrieval wins, in order. */
  readonly artifacts: readonly TurnArtifact[];
  readonly usage: ModelUsage;
  /** Tool calls made (including refused ones); never more than the cap. */
  readonly toolCalls: number;
}

/** Thrown when a model call fails; carries what the turn used and retrieved before it failed. */
export class LoopFailure extends Error {
  override readonly name = 'LoopFailure';
  constructor(
    readonly modelError: unknown,
    readonly usage: ModelUsage,
  ) {
    super('the model call failed');
  }
}

/** The turn's own deadline passed between calls (the service's timer may not have fired yet). */
export class DeadlineReached extends Error {
  override readonly name = 'DeadlineReached';
}

/** What one turn's model may produce; far below the SSE reader's own hard bounds. */
export interface LoopLimits {
  /** Tool calls one turn may make (HELIX_MODEL_MAX_TOOL_CALLS). */
  readonly maxToolCalls: number;
  /** Bytes one call's streamed answer may carry (HELIX_MODEL_MAX_RESPONSE_BYTES). */
  readonly maxResponseBytes: number;
  /** Characters all of one turn's answers may add up to (HELIX_MODEL_MAX_TURN_OUTPUT_CHARS). */
  readonly maxTurnOutputChars: number;
}

export const DEFAULT_OUTPUT_LIMITS = {
  maxResponseBytes: MODEL_OUTPUT_LIMITS.responseBytes.default,
  maxTurnOutputChars: MODEL_OUTPUT_LIMITS.turnChars.default,
} as const;

const output = (callId: string, body: string): ModelItem => ({ type: 'function_call_output', callId, output: body });

/** The size a model's item adds to the conversation the turn keeps and sends back. */
const itemChars = (item: ModelItem): number => {
  switch (item.type) {
    case 'message':
      return item.text.length;
    case 'function_call':
      return item.name.length + item.arguments.length;
    case 'function_call_output':
      return item.output.length;
    case 'reasoning':
      return JSON.stringify(item.opaque).length;
  }
};

const checkTime = (input: TurnInput, now: () => number): void => {
  input.signal.throwIfAborted();
  if (now() >= input.deadline) throw new DeadlineReached('turn deadline reached');
};

/** One model call in a span named by the provider's model (OpenTelemetry GenAI `chat {model}`); never the prompt. */
const generateTraced = (selection: ModelSelection, request: ModelRequest): Promise<ModelResponse> =>
  inSpan(
    `chat ${selection.model}`,
    { [ATTR.modelProvider]: selection.client.provider, [ATTR.modelName]: selection.model },
    () => generate(selection.client, request),
  );

/**
 * One turn's bounded conversation. Each tool call (a made-up name, a refused call, an invalid
 * submission alike) spends one unit of the cap, so no reply can loop the turn forever; once the
 * cap is spent the model gets one last request offering only the result tool. A valid submission
 * spends nothing: it is always accepted, which is what that last request is for. The conversation,
 * reasoning items included, lives in this function only and is dropped when it returns.
 */
export const runToolLoop = async (
  input: TurnInput,
  selection: ModelSelection,
  limits: LoopLimits,
  now: () => number,
): Promise<LoopResult> => {
  const { maxToolCalls } = limits;
  const table = buildToolTable(input.capabilities.menu);
  const resultTool = resultToolSpec();
  const items: ModelItem[] = [{ type: 'message', role: 'user', text: turnMessage(input) }];
  const artifacts = new Map<string, TurnArtifact>();
  let toolCalls = 0;
  let outputChars = 0;
  let finalRequest = false;
  const finish = (submitted: SubmittedResult | null): LoopResult => ({
    submitted,
    artifacts: [...artifacts.values()],
    usage: input.usage.total,
    toolCalls,
  });

  for (;;) {
    checkTime(input, now);
    let response: Awaited<ReturnType<typeof generateTraced>>;
    try {
      response = await generateTraced(selection, {
        model: selection.model,
        instructions: MODEL_INSTRUCTIONS,
        input: items,
        tools: finalRequest ? [resultTool] : [...table.specs, resultTool],
        ...(selection.reasoningEffort !== undefined ? { reasoningEffort: selection.reasoningEffort } : {}),
        cacheKey: input.runId,
        maxResponseBytes: limits.maxResponseBytes,
        signal: input.signal,
      });
    } catch (err) {
      input.signal.throwIfAborted();
      throw new LoopFailure(err, input.usage.total);
    }
    input.usage.add(response.usage);
    // Every answer stays in the conversation and is sent back with the next call: bound the sum too.
    outputChars += response.output.reduce((sum, item) => sum + itemChars(item), 0);
    if (outputChars > limits.maxTurnOutputChars) {
      throw new LoopFailure(
        new ModelError('output_limit', `the turn's model output exceeded ${limits.maxTurnOutputChars} characters`, {
          retryable: false,
        }),
        input.usage.total,
      );
    }
    items.push(...response.output);

    const calls = response.output.filter((item) => item.type === 'function_call');
    let submitted: SubmittedResult | null = null;
    for (const call of calls) {
      if (submitted !== null) {
        items.push(output(call.callId, JSON.stringify({ error: 'turn_already_submitted' })));
        continue;
      }
      const parsed = call.name === RESULT_TOOL_NAME ? parseSubmittedResult(call.arguments) : undefined;
      if (parsed?.ok === true) {
        submitted = parsed.result;
        continue;
      }
      if (toolCalls >= maxToolCalls) {
        items.push(output(call.callId, JSON.stringify({ error: 'tool_call_limit_reached' })));
        continue;
      }
      toolCalls += 1;
      if (parsed !== undefined) {
        items.push(output(call.callId, JSON.stringify({ error: 'invalid_result', detail: parsed.error })));
        continue;
      }
      checkTime(input, now);
      items.push(
        output(call.callId, await invokeTool(input, table.capabilityFor(call.name), call.arguments, artifacts)),
      );
    }
    if (submitted !== null) return finish(submitted);
    if (finalRequest) return finish(null);
    // Out of budget, or the model answered in prose instead of submitting: one last chance.
    if (toolCalls >= maxToolCalls || calls.length === 0) {
      finalRequest = true;
      items.push({ type: 'message', role: 'user', text: SUBMIT_NOW });
    }
  }
};

const invokeTool = async (
  input: TurnInput,
  capabilityId: string | undefined,
  argumentsJson: string,
  artifacts: Map<string, TurnArtifact>,
): Promise<string> => {
  if (capabilityId === undefined) return JSON.stringify({ error: 'tool_not_found' });
  let args: unknown;
  try {
    args = JSON.parse(argumentsJson === '' ? '{}' : argumentsJson);
  } catch {
    return JSON.stringify({ error: 'invalid_arguments', detail: 'arguments are not valid JSON' });
  }
  try {
    // invoke re-checks admission, honours the turn's signal and records the artifacts durably.
    const result = await input.capabilities.invoke(capabilityId, args);
    for (const artifact of result.artifacts) if (!artifacts.has(artifact.ref)) artifacts.set(artifact.ref, artifact);
    return digestResult(result);
  } catch (err) {
    input.signal.throwIfAborted();
    return digestError(err);
  }
};
