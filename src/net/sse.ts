import { createParser, type EventSourceMessage, type ParseError } from 'eventsource-parser';

/**
 * The one Server-Sent Events reader. The framing (WHATWG HTML §9.2.6 "Interpreting an event
 * stream": `event`, `data` lines joined with "\n", `id`, comments, CR/LF/CRLF split across chunks)
 * is eventsource-parser's; this module adds what a reader of an untrusted server needs around it.
 * Frames are yielded as they complete; a trailing unterminated frame is dropped, as the spec requires.
 *
 * The server is not trusted to be sane: one frame, and the stream as a whole, are bounded, so a
 * single endless `data:` line or a stream that never reaches a terminal event cannot grow memory
 * without limit. Either bound ends the read with `SseLimitError` and cancels the body.
 */
export interface SseFrame {
  readonly event: string | undefined;
  readonly data: string;
  /** The last event id the stream set (it carries over to later frames, as in the spec). */
  readonly id: string | undefined;
}

export interface SseLimits {
  /** Characters one frame (its pending line plus its data lines) may hold; default 16 Mi. */
  readonly maxFrameChars?: number;
  /** Bytes the whole body may carry, comments included; default 256 MiB. */
  readonly maxStreamBytes?: number;
}

/**
 * A terminal `response.completed` that repeats the whole output (encrypted reasoning included) is
 * the largest frame a real provider sends, a few MiB at most; a long answer streamed as deltas is
 * tens of MiB of frames. The defaults sit well above both.
 */
export const DEFAULT_SSE_LIMITS = { maxFrameChars: 16 * 1024 * 1024, maxStreamBytes: 256 * 1024 * 1024 } as const;

export const SSE_BOUNDS = ['frame', 'stream'] as const;
export type SseBound = (typeof SSE_BOUNDS)[number];

const BOUND_UNITS: { readonly [B in SseBound]: string } = {
  frame: 'characters in one frame',
  stream: 'bytes',
};

/** The stream passed one of its bounds; `limit` is the bound's value. */
export class SseLimitError extends Error {
  override readonly name = 'SseLimitError';
  /** What `limit` counts, e.g. "bytes". */
  readonly unit: string;
  constructor(
    readonly bound: SseBound,
    readonly limit: number,
  ) {
    super(`the event stream exceeded ${limit} ${BOUND_UNITS[bound]}`);
    this.unit = BOUND_UNITS[bound];
  }
}

/** Collects the parser's frames between reads, and the first bound it reports passed. */
const frameCollector = (maxFrameChars: number) => {
  const state = { frames: [] as SseFrame[], overflow: undefined as SseLimitError | undefined };
  let lastId: string | undefined;
  const parser = createParser({
    // The parser's own bound covers the pending line plus the buffered data lines.
    maxBufferSize: maxFrameChars,
    onEvent: (message: EventSourceMessage) => {
      if (state.overflow !== undefined) return;
      if (message.id !== undefined) lastId = message.id;
      // A whole frame can arrive in one chunk, past the parser's bound before it ever buffered it.
      if (message.data.length > maxFrameChars) state.overflow = new SseLimitError('frame', maxFrameChars);
      else state.frames.push({ event: message.event, data: message.data, id: lastId });
    },
    // Unknown fields and a malformed `retry` are ignored, as the spec says; only the bound ends the read.
    onError: (error: ParseError) => {
      if (error.type === 'max-buffer-size-exceeded') state.overflow ??= new SseLimitError('frame', maxFrameChars);
    },
  });
  return { state, feed: (text: string) => parser.feed(text) };
};

export async function* readSseFrames(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
  limits: SseLimits = {},
): AsyncGenerator<SseFrame> {
  const maxFrameChars = limits.maxFrameChars ?? DEFAULT_SSE_LIMITS.maxFrameChars;
  const maxStreamBytes = limits.maxStreamBytes ?? DEFAULT_SSE_LIMITS.maxStreamBytes;
  const decoder = new TextDecoder();
  const reader = body.getReader();
  const onAbort = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  const { state, feed } = frameCollector(maxFrameChars);
  let received = 0;
  try {
    for (;;) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) return;
      received += value.byteLength;
      if (received > maxStreamBytes) throw new SseLimitError('stream', maxStreamBytes);
      const text = decoder.decode(value, { stream: true });
      if (text !== '') feed(text);
      // The frames completed before a bound was passed are still handed out, in order.
      for (const frame of state.frames.splice(0)) {
        signal?.throwIfAborted();
        yield frame;
      }
      if (state.overflow !== undefined) throw state.overflow;
    }
  } catch (error) {
    // Stop the server streaming into a reader nobody will read again (an oversized or endless body).
    await reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.releaseLock();
  }
}
