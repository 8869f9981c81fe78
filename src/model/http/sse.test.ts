import { describe, expect, it } from 'vitest';
import { readSseFrames, type SseFrame } from './sse.js';

const streamOf = (chunks: readonly string[]): ReadableStream<Uint8Array> => {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
};

const collect = async (chunks: readonly string[]): Promise<SseFrame[]> => {
  const frames: SseFrame[] = [];
  for await (const frame of readSseFrames(streamOf(chunks))) frames.push(frame);
  return frames;
};

describe('readSseFrames', () => {
  it('yields event, data and id per blank-line-terminated frame', async () => {
    const frames = await collect(['event: response.created\ndata: {"a":1}\nid: 7\n\n', 'data: [DONE]\n\n']);
    expect(frames).toEqual([
      { event: 'response.created', data: '{"a":1}', id: '7' },
      { event: undefined, data: '[DONE]', id: '7' },
    ]);
  });

  it('reassembles frames split across chunks, including a CRLF split between chunks', async () => {
    const frames = await collect(['event: x\r', '\ndata: {"b"', ':2}\r\n\r', '\n']);
    expect(frames).toEqual([{ event: 'x', data: '{"b":2}', id: undefined }]);
  });

  it('joins multi-line data, ignores comments and unknown fields, and drops an unterminated tail', async () => {
    const frames = await collect([': keep-alive\n', 'retry: 10\ndata: one\ndata: two\n\n', 'data: cut off']);
    expect(frames).toEqual([{ event: undefined, data: 'one\ntwo', id: undefined }]);
  });

  it('decodes multi-byte UTF-8 split across chunks', async () => {
    const bytes = new TextEncoder().encode('data: café\n\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 9));
        controller.enqueue(bytes.slice(9));
        controller.close();
      },
    });
    const frames: SseFrame[] = [];
    for await (const frame of readSseFrames(body)) frames.push(frame);
    expect(frames[0]?.data).toBe('café');
  });

  it('stops with the abort reason when the signal fires', async () => {
    const controller = new AbortController();
    const body = new ReadableStream<Uint8Array>({ start() {} }); // never yields
    const iterator = readSseFrames(body, controller.signal);
    const pending = iterator.next();
    controller.abort(new Error('cancelled by test'));
    await expect(pending).rejects.toThrow('cancelled by test');
  });
});

describe('readSseFrames after an abort', () => {
  it('does not hand out frames it had already buffered', async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    const run = async () => {
      for await (const frame of readSseFrames(streamOf(['data: 1\n\ndata: 2\n\ndata: 3\n\n']), controller.signal)) {
        seen.push(frame.data);
        controller.abort(new Error('stop'));
      }
    };
    await expect(run()).rejects.toThrow('stop');
    expect(seen).toEqual(['1']);
  });
});
