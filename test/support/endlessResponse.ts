/** A body that never ends (`chunk` again and again), recording how much was pulled and whether it was cancelled. */
export const endlessBody = (chunk: string) => {
  const encoded = new TextEncoder().encode(chunk);
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.pulled += encoded.byteLength;
      controller.enqueue(encoded);
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
};

/** A response with an endless body. */
export const endlessResponse = (status: number, chunk: string) => {
  const { stream, state } = endlessBody(chunk);
  return { response: new Response(stream, { status }), state };
};
