/**
 * A Server-Sent Events frame reader (WHATWG HTML §9.2.6 "Interpreting an event stream"), enough
 * for model providers: `event`, `data` (multi-line joined with "\n"), `id`; comments and `retry`
 * are ignored. Frames are yielded as they complete; a trailing unterminated frame is dropped, as
 * the spec requires.
 */
export interface SseFrame {
  readonly event: string | undefined;
  readonly data: string;
  readonly id: string | undefined;
}

export async function* readSseFrames(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<SseFrame> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  const onAbort = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  let buffer = '';
  let event: string | undefined;
  let id: string | undefined;
  let data: string[] = [];
  try {
    for (;;) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = nextLineEnd(buffer)) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(buffer[newline] === '\r' && buffer[newline + 1] === '\n' ? newline + 2 : newline + 1);
        if (line === '') {
          signal?.throwIfAborted();
          if (data.length > 0) yield { event, data: data.join('\n'), id };
          event = undefined;
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let fieldValue = colon < 0 ? '' : line.slice(colon + 1);
        if (fieldValue.startsWith(' ')) fieldValue = fieldValue.slice(1);
        if (field === 'event') event = fieldValue;
        else if (field === 'data') data.push(fieldValue);
        else if (field === 'id') id = fieldValue;
      }
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.releaseLock();
  }
}

/** Index of the first line terminator (CRLF, LF or CR) that is certainly complete, else -1. */
const nextLineEnd = (buffer: string): number => {
  for (let i = 0; i < buffer.length; i += 1) {
    const c = buffer[i];
    if (c === '\n') return i;
    if (c === '\r') return i + 1 < buffer.length ? i : -1; // a lone CR at the end may be half of CRLF
  }
  return -1;
};
