import type { ModelItem, ModelRequest } from '../port.js';

/**
 * The Responses wire mapping shared by the Codex subscription and the OpenAI-compatible gateway.
 * The `codex` profile is the pinned contract (docs/spec/codex-subscription-protocol.md "Pinned Responses
 * contract") field for field; a change here must be checked against that reference and its
 * fixtures under test/fixtures/responses-sse/.
 *
 * The `gateway` profile differs on purpose. An OpenAI-compatible API serves models that are not
 * reasoning models and servers that implement only the core of the API: `text.verbosity`,
 * `reasoning.summary` and `include: ["reasoning.encrypted_content"]` are rejected with 400
 * `unsupported_parameter` by models that lack them, and `prompt_cache_key` is not part of every
 * compatible server. So the gateway sends only what every Responses server accepts, and asks for
 * reasoning (and its encrypted continuation) only when the run names an effort.
 */
export const RESPONSES_PROFILES = ['codex', 'gateway'] as const;
export type ResponsesProfile = (typeof RESPONSES_PROFILES)[number];

export interface ResponsesBodyOptions {
  readonly profile: ResponsesProfile;
  /** The client's provider name; reasoning items tagged with another provider are dropped. */
  readonly provider: string;
}

type WireItem = Record<string, unknown>;

/** One provider-neutral item as Responses `input`, or undefined when it must not be sent. */
const toWireItem = (item: ModelItem, provider: string): WireItem | undefined => {
  switch (item.type) {
    case 'message':
      return item.role === 'user'
        ? { type: 'message', role: 'user', content: [{ type: 'input_text', text: item.text }] }
        : { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: item.text }] };
    case 'function_call':
      // Both ids travel: `call_id` pairs the output, `id` names the provider's item (contract:
      // "Tool continuation retains both the public call id and provider function-item id").
      return {
        type: 'function_call',
        ...(item.itemId !== undefined ? { id: item.itemId } : {}),
        call_id: item.callId,
        name: item.name,
        arguments: item.arguments,
      };
    case 'function_call_output':
      return { type: 'function_call_output', call_id: item.callId, output: item.output };
    case 'reasoning':
      // Encrypted reasoning is only meaningful to the provider that issued it; under store:false an
      // item without encrypted_content points at nothing the server kept, so it is not replayable.
      if (item.provider !== provider || typeof item.opaque.encrypted_content !== 'string') return undefined;
      return { ...item.opaque };
  }
};

export const toResponsesInput = (items: readonly ModelItem[], provider: string): WireItem[] =>
  items.flatMap((item) => {
    const wire = toWireItem(item, provider);
    return wire === undefined ? [] : [wire];
  });

const functionTools = (request: ModelRequest) =>
  request.tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    strict: null,
  }));

/** The JSON body of `POST …/responses`. No output-token limit is ever sent (protocol notes). */
export const toResponsesBody = (request: ModelRequest, options: ResponsesBodyOptions): Record<string, unknown> => {
  const effort = request.reasoningEffort;
  const common = {
    model: request.model,
    instructions: request.instructions,
    input: toResponsesInput(request.input, options.provider),
    tools: functionTools(request),
    tool_choice: 'auto',
    parallel_tool_calls: true,
    store: false,
    stream: true,
  };
  if (options.profile === 'codex') {
    return {
      ...common,
      reasoning: { ...(effort !== undefined ? { effort } : {}), summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      text: { verbosity: 'low' },
      ...(request.cacheKey !== undefined ? { prompt_cache_key: request.cacheKey } : {}),
    };
  }
  return effort === undefined ? common : { ...common, reasoning: { effort }, include: ['reasoning.encrypted_content'] };
};

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

const messageText = (content: unknown): string => {
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => {
      const record = asRecord(part);
      if (record?.type === 'output_text' && typeof record.text === 'string') return record.text;
      if (record?.type === 'refusal' && typeof record.refusal === 'string') return record.refusal;
      return '';
    })
    .join('');
};

/**
 * A Responses output item as a provider-neutral item. Kinds the harness does not use (web search
 * calls, images, …) map to undefined and are skipped.
 */
export const fromResponsesItem = (value: unknown, provider: string): ModelItem | undefined => {
  const item = asRecord(value);
  if (item === undefined) return undefined;
  switch (item.type) {
    case 'message':
      if (item.role !== 'assistant') return undefined;
      return { type: 'message', role: 'assistant', text: messageText(item.content) };
    case 'function_call': {
      const callId = item.call_id;
      const name = item.name;
      if (typeof callId !== 'string' || typeof name !== 'string') return undefined;
      const args = item.arguments;
      const itemId = item.id;
      return {
        type: 'function_call',
        callId,
        ...(typeof itemId === 'string' ? { itemId } : {}),
        name,
        arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
      };
    }
    case 'reasoning':
      // Kept whole and opaque: replay must send back exactly what the provider produced.
      return { type: 'reasoning', provider, opaque: structuredClone(item) };
    default:
      return undefined;
  }
};
