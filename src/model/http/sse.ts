import { ModelError } from '../port.js';

/**
 * A Server-Sent Events frame reader (WHATWG HTML §9.2.6 "Interpreting an event stream"), enough
 * for model providers: `event`, `data` (multi-line joined with "\n"), `id`; comments and `retry`
 * are ignored. Frames are yielded as they complete; a trailing unterminated frame is dropped, as
 * the spec requires.
 *
 * The provider is not trusted to be sane: one frame, and the stream as a whole, are bounded, so a
 * single endless `data:` line or a stream that never reaches a terminal event cannot grow memory
 * without limit. Either bound ends the read with ModelError('protocol'), not retried: the same
 * server would only do it again.
 */
export interface SseFrame {
  readonly event: string | undefined;
  readonly data: string;
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

const tooLarge = (what: string, limit: number): ModelError =>
  new ModelError('output_limit', `the provider's event stream exceeded ${limit} ${what}`, { retryable: false });

/** The reader's limits for one call allowed `maxResponseBytes`: no frame can be larger than the whole answer. */
export const limitsFor = (maxResponseBytes: number | undefined): SseLimits =>
  maxResponseBytes === undefined
    ? {}
    : { maxStreamBytes: maxResponseBytes, maxFrameChars: Math.min(DEFAULT_SSE_LIMITS.maxFrameChars, maxResponseBytes) };

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
  // The start of a line whose end has not arrived, kept as pieces: appending each chunk to one
  // string and scanning it again would be quadratic in the length of a long line.
  let partial: string[] = [];
  let partialChars = 0;
  // A chunk ended in CR: an LF opening the next chunk belongs to it (CRLF split across chunks).
  let skipLf = false;
  let received = 0;
  let event: string | undefined;
  let id: string | undefined;
  let data: string[] = [];
  let dataChars = 0;
  try {
    for (;;) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) return;
      received += value.byteLength;
      if (received > maxStreamBytes) throw tooLarge('bytes', maxStreamBytes);
      const text = decoder.decode(value, { stream: true });
      if (text === '') continue;
      let start = skipLf && text[0] === '\n' ? 1 : 0;
      skipLf = false;
      for (let i = start; i < text.length; i += 1) {
        const c = text[i];
        if (c !== '\n' && c !== '\r') continue;
        const line = partialChars === 0 ? text.slice(start, i) : partial.join('') + text.slice(start, i);
        partial = [];
        partialChars = 0;
        if (c === '\r') {
          if (i + 1 === text.length) skipLf = true;
          else if (text[i + 1] === '\n') i += 1;
        }
        start = i + 1;
        if (line === '') {
          signal?.throwIfAborted();
          if (data.length > 0) yield { event, data: data.join('\n'), id };
          event = undefined;
          data = [];
          dataChars = 0;
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let fieldValue = colon < 0 ? '' : line.slice(colon + 1);
        if (fieldValue.startsWith(' ')) fieldValue = fieldValue.slice(1);
        if (field === 'event') event = fieldValue;
        else if (field === 'data') {
          dataChars += fieldValue.length + 1;
          if (dataChars > maxFrameChars) throw tooLarge('characters in one frame', maxFrameChars);
          data.push(fieldValue);
        } else if (field === 'id') id = fieldValue;
      }
      if (start < text.length) {
        partial.push(text.slice(start));
        partialChars += text.length - start;
        if (dataChars + partialChars > maxFrameChars) throw tooLarge('characters in one frame', maxFrameChars);
      }
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
