import { describe, expect, it } from 'vitest';
import { endlessBody } from '../../test/support/endlessResponse.js';
import { DEFAULT_SSE_LIMITS, readSseFrames, SseLimitError, type SseFrame } from './sse.js';
import { growthRatio, linearBound } from '../../test/support/growth.js';

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

  it('reads malformed lines as the spec says: unknown fields and a bad retry ignored, a bare field name is an empty value', async () => {
    const frames = await collect([
      'bogus: 1\nretry: soon\nDATA: shouted\n: comment\ndata\n\n',
      'event:\ndata:{"c":3}\n\n',
      '\n\n\nevent: lonely\n\n',
      'data: last\r\rdata: tail without blank line\n',
    ]);
    expect(frames).toEqual([
      { event: undefined, data: '', id: undefined },
      { event: undefined, data: '{"c":3}', id: undefined },
      { event: undefined, data: 'last', id: undefined },
    ]);
  });

  it('skips a byte-order mark at the start of the stream', async () => {
    const frames = await collect(['\uFEFFdata: first\n\n']);
    expect(frames).toEqual([{ event: undefined, data: 'first', id: undefined }]);
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

describe('readSseFrames bounds', () => {
  const failure = async (stream: ReadableStream<Uint8Array>, limits: Parameters<typeof readSseFrames>[2]) => {
    try {
      for await (const _frame of readSseFrames(stream, undefined, limits)) {
        // frames are drained; only the failure matters
      }
    } catch (error) {
      return error;
    }
    return undefined;
  };

  it('a single data line that never ends is an output_limit error once it passes the frame bound, and the body is cancelled', async () => {
    const { stream, state } = endlessBody('x'.repeat(1024));
    const error = await failure(
      new ReadableStream({
        start: (c) => c.enqueue(new TextEncoder().encode('data: ')),
        pull: async (c) => {
          const reader = stream.getReader();
          const { value } = await reader.read();
          reader.releaseLock();
          if (value !== undefined) c.enqueue(value);
        },
        cancel: () => stream.cancel(),
      }),
      { maxFrameChars: 64 * 1024 },
    );
    expect(error).toBeInstanceOf(SseLimitError);
    expect(error).toMatchObject({ bound: 'frame', limit: 64 * 1024 });
    expect(state.pulled).toBeLessThan(256 * 1024);
    expect(state.cancelled).toBe(true);
  });

  it('endless data lines without a blank line are bounded the same way', async () => {
    const { stream, state } = endlessBody('data: 0123456789abcdef\n');
    const error = await failure(stream, { maxFrameChars: 64 * 1024 });
    expect(error).toMatchObject({ bound: 'frame', limit: 64 * 1024 });
    expect(state.pulled).toBeLessThan(256 * 1024);
    expect(state.cancelled).toBe(true);
  });

  it('an endless stream of complete frames (or comments) ends at the stream bound', async () => {
    for (const line of ['event: response.output_text.delta\ndata: {"delta":"a"}\n\n', ': keep-alive\n']) {
      const { stream, state } = endlessBody(line);
      const error = await failure(stream, { maxStreamBytes: 1024 * 1024 });
      expect(error).toBeInstanceOf(SseLimitError);
      expect(error).toMatchObject({ bound: 'stream', limit: 1024 * 1024 });
      expect(state.pulled).toBeLessThan(2 * 1024 * 1024);
      expect(state.cancelled).toBe(true);
    }
  });

  it('a frame that arrives whole in one chunk is held to the frame bound too; the frames before it are handed out', async () => {
    const frames: string[] = [];
    const error = await (async () => {
      try {
        for await (const frame of readSseFrames(streamOf([`data: small\n\ndata: ${'z'.repeat(2048)}\n\n`]), undefined, {
          maxFrameChars: 1024,
        }))
          frames.push(frame.data);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(frames).toEqual(['small']);
    expect(error).toMatchObject({ bound: 'frame', limit: 1024 });
  });

  it('the default bounds apply without options', () => {
    expect(DEFAULT_SSE_LIMITS.maxFrameChars).toBeGreaterThanOrEqual(8 * 1024 * 1024);
    expect(DEFAULT_SSE_LIMITS.maxStreamBytes).toBeGreaterThanOrEqual(64 * 1024 * 1024);
  });

  it('reads a large frame that arrives in many small chunks in linear time', async () => {
    const frameOf = (size: number) => {
      const payload = 'y'.repeat(size);
      const chunks = ['data: '];
      for (let at = 0; at < size; at += 4096) chunks.push(payload.slice(at, at + 4096));
      chunks.push('\n\n');
      return chunks;
    };
    const frames = await collect(frameOf(8 * 1024 * 1024));
    expect(frames[0]?.data.length).toBe(8 * 1024 * 1024);
    // Scanning the whole pending line again per chunk is quadratic: 16x the time for 4x the chunks.
    const sizes = { small: 1024 * 1024, big: 8 * 1024 * 1024 };
    expect(await growthRatio((size) => collect(frameOf(size)), sizes)).toBeLessThan(linearBound(sizes));
  });
});
