import { describe, expect, it } from 'vitest';
import { chatFailures } from '../chat/chatFailures.js';
import { classifyHttpFailure } from '../responses/failures.js';
import { readBoundedText } from '../../net/boundedBody.js';
import { fetchModelList } from './modelList.js';
import { responsesFailures } from '../responses/failures.js';

/** A response whose body never ends, recording how much was pulled and whether it was cancelled. */
const endlessResponse = (status: number, chunk = '{"error":{"message":"' + 'x'.repeat(4096)) => {
  const encoded = new TextEncoder().encode(chunk);
  const state = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.pulled += encoded.byteLength;
      controller.enqueue(encoded);
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { response: new Response(body, { status }), state };
};

describe('readBoundedText', () => {
  it('reads a short body whole, multi-byte text included', async () => {
    expect(await readBoundedText(new Response('héllo ✓'), 1024)).toEqual({ text: 'héllo ✓', complete: true });
    expect(await readBoundedText(new Response(null, { status: 204 }), 1024)).toEqual({ text: '', complete: true });
  });

  it('stops at the bound on an endless body and cancels the rest', async () => {
    const { response, state } = endlessResponse(200, 'abcd');
    const read = await readBoundedText(response, 10_000);
    expect(read.complete).toBe(false);
    expect(read.text).toHaveLength(10_000);
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThan(1_000_000);
  });

  it('rejects like text() when the body fails mid-read', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('partial'));
        controller.error(new Error('connection reset'));
      },
    });
    await expect(readBoundedText(new Response(body), 1024)).rejects.toThrow('connection reset');
  });
});

describe('untrusted bodies stay bounded', () => {
  it('an endless Responses error body is classified from its first bytes, not buffered forever', async () => {
    const { response, state } = endlessResponse(500);
    const error = await classifyHttpFailure(response, 0);
    expect(error).toMatchObject({ kind: 'server', details: { retryable: true, httpStatus: 500 } });
    expect(state.cancelled).toBe(true);
  });

  it('an endless Chat Completions error body likewise', async () => {
    const { response, state } = endlessResponse(400);
    const error = await chatFailures.classifyHttpFailure(response, 0);
    expect(error).toMatchObject({ kind: 'bad_request', details: { httpStatus: 400 } });
    expect(state.cancelled).toBe(true);
  });

  it('an endless model list is a protocol error', async () => {
    const { response, state } = endlessResponse(200, '{"data":[' + '{"id":"m"},'.repeat(1000));
    const failure = await fetchModelList(
      async () => response,
      new AbortController().signal,
      responsesFailures,
      () => 0,
    ).catch((e: unknown) => e);
    expect(failure).toMatchObject({ kind: 'protocol', details: { retryable: false } });
    expect(state.cancelled).toBe(true);
  });
});
