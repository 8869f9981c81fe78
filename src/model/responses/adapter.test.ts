import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ModelError, ModelStreamEvent } from '../port.js';
import { adaptResponsesStream, normalizeUsage } from './adapter.js';
import { rejectsWithModelError } from '../../../test/support/modelErrors.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`../../../test/fixtures/responses-sse/${name}`, import.meta.url), 'utf8');

const bodyOf = (text: string): ReadableStream<Uint8Array> => {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      // Uneven chunks, so frames straddle reads as they do on a real socket.
      for (let i = 0; i < bytes.length; i += 97) controller.enqueue(bytes.slice(i, i + 97));
      controller.close();
    },
  });
};

const run = async (text: string): Promise<ModelStreamEvent[]> => {
  const events: ModelStreamEvent[] = [];
  for await (const event of adaptResponsesStream(bodyOf(text), {
    provider: 'codex-subscription',
    signal: new AbortController().signal,
  })) {
    events.push(event);
  }
  return events;
};

const failure = (text: string): Promise<ModelError> => rejectsWithModelError(run(text));

const completed = (events: ModelStreamEvent[]) => {
  const last = events.at(-1);
  if (last?.type !== 'completed') throw new Error('no completed event');
  return last.response;
};

describe('adaptResponsesStream over the recorded fixtures', () => {
  it('plain text: deltas stream, the message comes from output_item.done although the terminal output is empty, [DONE] is tolerated', async () => {
    const events = await run(fixture('text.sse'));
    expect(events.filter((e) => e.type === 'text_delta').map((e) => (e.type === 'text_delta' ? e.delta : ''))).toEqual([
      'The WAL ',
      'file is ',
      'checkpointed.',
    ]);
    const response = completed(events);
    expect(response.id).toBe('resp_fixture_text');
    expect(response.output).toEqual([{ type: 'message', role: 'assistant', text: 'The WAL file is checkpointed.' }]);
    expect(response.usage).toEqual({
      inputTokens: 1200,
      cachedInputTokens: 1024,
      cacheWriteTokens: 0,
      outputTokens: 40,
      reasoningTokens: 0,
      totalTokens: 1240,
    });
    expect(events.filter((e) => e.type === 'item_done')).toHaveLength(1);
  });

  it('a populated terminal output wins and the streamed copy is not counted twice', async () => {
    const events = await run(fixture('populated-output.sse'));
    expect(completed(events).output).toEqual([{ type: 'message', role: 'assistant', text: 'Hello world.' }]);
    expect(events.filter((e) => e.type === 'item_done')).toHaveLength(1);
  });

  it('function call: one item with call_id, item id, name and the full arguments (not the deltas)', async () => {
    const response = completed(await run(fixture('function-call.sse')));
    expect(response.output).toEqual([
      {
        type: 'function_call',
        callId: 'call_fixture_01',
        itemId: 'fc_fixture_01',
        name: 'search_library',
        arguments: '{"query":"sqlite wal checkpoint"}',
      },
    ]);
    expect(response.usage.reasoningTokens).toBe(12);
  });

  it('reasoning: kept whole as provider-tagged opaque state beside the message, with a null terminal output', async () => {
    const response = completed(await run(fixture('reasoning.sse')));
    expect(response.output).toHaveLength(2);
    const [reasoning, message] = response.output;
    expect(reasoning).toMatchObject({ type: 'reasoning', provider: 'codex-subscription' });
    expect(reasoning?.type === 'reasoning' ? reasoning.opaque.encrypted_content : undefined).toMatch(/^gAAAAAB/);
    expect(reasoning?.type === 'reasoning' ? reasoning.opaque.id : undefined).toBe('rs_fixture_01');
    expect(message).toEqual({ type: 'message', role: 'assistant', text: 'Two tables.' });
  });

  it('response.done is a terminal spelling too', async () => {
    expect(completed(await run(fixture('done-terminal.sse'))).output).toEqual([
      { type: 'message', role: 'assistant', text: 'Done variant.' },
    ]);
  });

  it.each([
    ['incomplete-max-output-tokens.sse', 'max_output_tokens'],
    ['incomplete-content-filter.sse', 'content_filter'],
  ])('%s fails as incomplete naming the reason', async (name, reason) => {
    const error = await failure(fixture(name));
    expect(error.kind).toBe('incomplete');
    expect(error.details).toMatchObject({ retryable: false, providerCode: reason });
    expect(error.message).toContain(reason);
  });

  it.each([
    ['failed-rate-limit.sse', 'rate_limited', true, 'rate_limit_exceeded'],
    ['failed-insufficient-quota.sse', 'quota', false, 'insufficient_quota'],
    ['failed-usage-not-included.sse', 'quota', false, 'usage_not_included'],
    ['failed-context-length.sse', 'context_length', false, 'context_length_exceeded'],
    ['failed-server-overloaded.sse', 'server', true, 'server_is_overloaded'],
  ])('%s → %s (retryable %s)', async (name, kind, retryable, code) => {
    const error = await failure(fixture(name));
    expect(error.kind).toBe(kind);
    expect(error.details.retryable).toBe(retryable);
    expect(error.details.providerCode).toBe(code);
  });

  it('the rate-limit failure carries the stated delay', async () => {
    expect((await failure(fixture('failed-rate-limit.sse'))).details.retryAfterMs).toBe(11_054);
  });

  it('in-stream error, top-level form', async () => {
    const error = await failure(fixture('error-top-level.sse'));
    expect(error.kind).toBe('server');
    expect(error.details).toMatchObject({ retryable: true, providerCode: 'server_error' });
  });

  it('in-stream error, nested form: unsupported_parameter names reasoning.summary and is final', async () => {
    const error = await failure(fixture('error-unsupported-parameter.sse'));
    expect(error.kind).toBe('unsupported_parameter');
    expect(error.details).toMatchObject({
      retryable: false,
      param: 'reasoning.summary',
      providerType: 'invalid_request_error',
    });
    expect(error.message).toContain('reasoning.summary');
  });

  it('an overload error as the very first event is retryable', async () => {
    const error = await failure(fixture('error-overload-first.sse'));
    expect(error.details).toMatchObject({ retryable: true, providerCode: 'server_is_overloaded' });
  });

  it('a body that ends without a terminal event is a protocol error', async () => {
    const error = await failure(fixture('no-terminal.sse'));
    expect(error.kind).toBe('protocol');
    expect(error.message).toBe('stream closed before completion');
  });

  it('an empty body is a protocol error, and a non-JSON frame is refused', async () => {
    expect((await failure('')).message).toBe('stream closed before completion');
    expect((await failure('event: response.created\ndata: {not json\n\n')).kind).toBe('protocol');
  });

  it('a response.completed whose status is failed still fails', async () => {
    const text = `event: response.completed\ndata: ${JSON.stringify({
      type: 'response.completed',
      response: { id: 'r', status: 'failed', error: { code: 'context_length_exceeded', message: 'too long' } },
    })}\n\n`;
    expect((await failure(text)).kind).toBe('context_length');
  });

  it('aborting the signal stops the read', async () => {
    const controller = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(fixture('no-terminal.sse')));
      },
    });
    const iterator = adaptResponsesStream(body, { provider: 'p', signal: controller.signal })[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ type: 'text_delta', delta: 'cut ' });
    controller.abort();
    await expect(iterator.next()).rejects.toBeDefined();
  });
});

describe('normalizeUsage', () => {
  it('reads cache writes from the spellings compatible gateways use, and fills total from input + output', () => {
    expect(
      normalizeUsage({ input_tokens: 10, input_tokens_details: { cache_write_tokens: 4 }, output_tokens: 3 }),
    ).toEqual({
      inputTokens: 10,
      cachedInputTokens: 0,
      cacheWriteTokens: 4,
      outputTokens: 3,
      reasoningTokens: 0,
      totalTokens: 13,
    });
    expect(normalizeUsage({ cache_creation_input_tokens: 7 }).cacheWriteTokens).toBe(7);
  });

  it('turns null, negatives, fractions and strings into non-negative integers', () => {
    expect(normalizeUsage(null)).toEqual(normalizeUsage({}));
    expect(normalizeUsage({ input_tokens: -5, output_tokens: 2.7, total_tokens: '9' })).toMatchObject({
      inputTokens: 0,
      outputTokens: 2,
      totalTokens: 2,
    });
  });
});

describe('adaptResponsesStream and a hostile provider', () => {
  it('an incomplete reason that is free text is not kept as the provider code', async () => {
    const frame = (reason: string) =>
      `event: response.incomplete\ndata: ${JSON.stringify({ type: 'response.incomplete', response: { status: 'incomplete', incomplete_details: { reason } } })}\n\n`;
    const hostile = await failure(frame('cut off; your key sk_live_abc is 0123456789abcdef0123456789abcdef'));
    expect(hostile).toMatchObject({ kind: 'incomplete', details: { providerCode: 'unstated' } });
    expect(hostile.message).not.toContain('0123456789abcdef');
    expect((await failure(frame('max_output_tokens'))).details.providerCode).toBe('max_output_tokens');
  });
});
