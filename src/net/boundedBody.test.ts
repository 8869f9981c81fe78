import { describe, expect, it } from 'vitest';
import { endlessResponse } from '../../test/support/endlessResponse.js';
import { readBoundedText } from './boundedBody.js';

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
