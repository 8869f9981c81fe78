/**
 * Reads a response body as UTF-8 text, but never more than `maxBytes` of it: `response.text()`
 * buffers whatever a server sends, and an error answer or a model list from an untrusted
 * (user-configured) or misbehaving server can be endless. Past the bound the rest is cancelled,
 * which also closes the connection. A read that fails (an abort, a reset) rejects as `text()` would.
 */
export interface BoundedText {
  readonly text: string;
  /** False when the body went past `maxBytes` (the text is then its first `maxBytes` bytes). */
  readonly complete: boolean;
}

export const readBoundedText = async (response: Response, maxBytes: number): Promise<BoundedText> => {
  if (response.body === null) return { text: '', complete: true };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text: text + decoder.decode(), complete: true };
      const room = maxBytes - received;
      received += value.byteLength;
      if (value.byteLength > room) {
        text += decoder.decode(value.subarray(0, room));
        await reader.cancel().catch(() => undefined);
        return { text, complete: false };
      }
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    reader.releaseLock();
  }
};
