/** A response whose body never ends (`chunk` again and again), recording how much was pulled and whether it was cancelled. */
export const endlessResponse = (status: number, chunk: string) => {
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
