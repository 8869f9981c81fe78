import { describe, expect, it } from 'vitest';
import type { ModelItem, ModelRequest } from '../port.js';
import { fromResponsesItem, toResponsesBody, toResponsesInput } from './request.js';

const schema = {
  type: 'object',
  properties: { query: { type: 'string' } },
  required: ['query'],
  additionalProperties: false,
};

const request = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  model: 'gpt-5.1-codex',
  instructions: 'You are Helix.',
  input: [{ type: 'message', role: 'user', text: 'hi' }],
  tools: [{ name: 'search_library', description: 'Search the library', parameters: schema }],
  signal: new AbortController().signal,
  ...overrides,
});

const encrypted = {
  id: 'rs_1',
  type: 'reasoning',
  summary: [{ type: 'summary_text', text: 's' }],
  encrypted_content: 'gAAAA…',
};

describe('toResponsesBody, codex profile (the pinned contract)', () => {
  it('sends every request invariant, the system prompt as instructions, and the cache key', () => {
    const body = toResponsesBody(request({ reasoningEffort: 'high', cacheKey: 'run_42' }), {
      profile: 'codex',
      provider: 'codex-subscription',
    });
    expect(body).toEqual({
      model: 'gpt-5.1-codex',
      instructions: 'You are Helix.',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
      tools: [
        {
          type: 'function',
          name: 'search_library',
          description: 'Search the library',
          parameters: schema,
          strict: null,
        },
      ],
      tool_choice: 'auto',
      parallel_tool_calls: true,
      store: false,
      stream: true,
      reasoning: { effort: 'high', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      text: { verbosity: 'low' },
      prompt_cache_key: 'run_42',
    });
  });

  it('asks for a reasoning summary even without an effort, and never sets an output-token limit', () => {
    const body = toResponsesBody(request(), { profile: 'codex', provider: 'codex-subscription' });
    expect(body.reasoning).toEqual({ summary: 'auto' });
    expect(body).not.toHaveProperty('max_output_tokens');
    expect(body).not.toHaveProperty('prompt_cache_key');
  });

  it('passes a tool schema through by identity of content (no strict-mode rewriting)', () => {
    const body = toResponsesBody(request(), { profile: 'codex', provider: 'codex-subscription' });
    expect((body.tools as Array<{ parameters: unknown }>)[0]?.parameters).toEqual(schema);
  });
});

describe('toResponsesBody, gateway profile', () => {
  it('leaves out the Codex-only fields and reasoning when no effort is named', () => {
    const body = toResponsesBody(request({ cacheKey: 'run_42' }), { profile: 'gateway', provider: 'openai-responses' });
    expect(body).toMatchObject({
      store: false,
      stream: true,
      tool_choice: 'auto',
      parallel_tool_calls: true,
      instructions: 'You are Helix.',
    });
    for (const field of ['reasoning', 'include', 'text', 'prompt_cache_key', 'max_output_tokens'])
      expect(body).not.toHaveProperty(field);
  });

  it('asks for reasoning and its encrypted continuation when an effort is named', () => {
    const body = toResponsesBody(request({ reasoningEffort: 'low' }), {
      profile: 'gateway',
      provider: 'openai-responses',
    });
    expect(body.reasoning).toEqual({ effort: 'low' });
    expect(body.include).toEqual(['reasoning.encrypted_content']);
  });
});

describe('toResponsesInput', () => {
  it('maps messages, a function call with both ids, and its output under the same call id', () => {
    const items: ModelItem[] = [
      { type: 'message', role: 'user', text: 'find it' },
      { type: 'function_call', callId: 'call_1', itemId: 'fc_1', name: 'search_library', arguments: '{"query":"x"}' },
      { type: 'function_call_output', callId: 'call_1', output: '3 hits' },
      { type: 'message', role: 'assistant', text: 'found 3' },
    ];
    expect(toResponsesInput(items, 'codex-subscription')).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'find it' }] },
      { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'search_library', arguments: '{"query":"x"}' },
      { type: 'function_call_output', call_id: 'call_1', output: '3 hits' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'found 3' }] },
    ]);
  });

  it('omits the item id when a call never had one (e.g. from another provider)', () => {
    expect(toResponsesInput([{ type: 'function_call', callId: 'c', name: 'n', arguments: '{}' }], 'p')).toEqual([
      { type: 'function_call', call_id: 'c', name: 'n', arguments: '{}' },
    ]);
  });

  it('replays reasoning verbatim only to the provider that produced it, and only with encrypted content', () => {
    const mine: ModelItem = { type: 'reasoning', provider: 'codex-subscription', opaque: encrypted };
    const theirs: ModelItem = { type: 'reasoning', provider: 'openai-responses', opaque: encrypted };
    const hollow: ModelItem = {
      type: 'reasoning',
      provider: 'codex-subscription',
      opaque: { id: 'rs_2', type: 'reasoning', summary: [] },
    };
    expect(toResponsesInput([mine, theirs, hollow], 'codex-subscription')).toEqual([encrypted]);
  });
});

describe('fromResponsesItem', () => {
  it('round-trips a function call and a reasoning item back to the same wire form', () => {
    const call = {
      id: 'fc_9',
      type: 'function_call',
      status: 'completed',
      call_id: 'call_9',
      name: 'read',
      arguments: '{"a":1}',
    };
    const neutral = [fromResponsesItem(call, 'codex-subscription'), fromResponsesItem(encrypted, 'codex-subscription')];
    expect(
      toResponsesInput(
        neutral.filter((item): item is ModelItem => item !== undefined),
        'codex-subscription',
      ),
    ).toEqual([
      { type: 'function_call', id: 'fc_9', call_id: 'call_9', name: 'read', arguments: '{"a":1}' },
      encrypted,
    ]);
  });

  it('joins output_text parts, keeps a refusal as text, and skips kinds the harness does not use', () => {
    const message = {
      type: 'message',
      role: 'assistant',
      content: [
        { type: 'output_text', text: 'a' },
        { type: 'refusal', refusal: 'no' },
      ],
    };
    expect(fromResponsesItem(message, 'p')).toEqual({ type: 'message', role: 'assistant', text: 'ano' });
    expect(fromResponsesItem({ type: 'web_search_call', id: 'ws' }, 'p')).toBeUndefined();
    expect(fromResponsesItem({ type: 'function_call', name: 'n' }, 'p')).toBeUndefined();
    expect(fromResponsesItem('garbage', 'p')).toBeUndefined();
  });
});
