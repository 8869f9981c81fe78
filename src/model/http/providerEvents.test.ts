import { describe, expect, it } from 'vitest';
import { ModelError } from '../port.js';
import { readProviderEvents } from './providerEvents.js';

const streamOf = (text: string): ReadableStream<Uint8Array> =>
  new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      controller.close();
    },
  });

const drain = async (events: AsyncIterable<unknown>): Promise<unknown> => {
  try {
    for await (const _event of events) {
      // only the failure matters
    }
  } catch (error) {
    return error;
  }
  return undefined;
};

describe("a provider's event stream", () => {
  it('a stream past its bound is an output_limit ModelError, not retried', async () => {
    const error = await drain(
      readProviderEvents(streamOf(`data: ${'x'.repeat(4096)}\n\n`), new AbortController().signal, {
        maxStreamBytes: 1024,
      }),
    );
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ kind: 'output_limit', details: { retryable: false } });
    expect((error as Error).message).toBe("the provider's event stream exceeded 1024 bytes");
  });

  it('a frame past its bound is an output_limit ModelError too', async () => {
    const error = await drain(
      readProviderEvents(streamOf(`data: ${'x'.repeat(4096)}\n\n`), new AbortController().signal, {
        maxFrameChars: 1024,
      }),
    );
    expect(error).toMatchObject({ kind: 'output_limit', details: { retryable: false } });
  });

  it('an abort passes through as its reason', async () => {
    const controller = new AbortController();
    controller.abort(new Error('turn cancelled'));
    const error = await drain(readProviderEvents(streamOf('data: 1\n\n'), controller.signal));
    expect(error).not.toBeInstanceOf(ModelError);
    expect((error as Error).message).toBe('turn cancelled');
  });
});
