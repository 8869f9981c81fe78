import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { StreamItem } from '../service/runs/streamEvents.js';

export type EventStream = (signal: AbortSignal) => AsyncGenerator<StreamItem>;
export type SendEventStream = (request: FastifyRequest, reply: FastifyReply, stream: EventStream) => Promise<void>;

/**
 * Server-Sent Events (`text/event-stream`): `id:` is the event seq, so a browser or client that
 * reconnects with `Last-Event-ID` resumes exactly after the last event it saw. Comment lines are
 * heartbeats; an `end` event closes a stream whose run is terminal. The REST stream and the
 * console's live timeline both send through this. Open streams would hold shutdown forever, so
 * closing `app` ends them first.
 */
export const eventStreamSender = (app: FastifyInstance): SendEventStream => {
  const open = new Map<AbortController, { destroy(): void }>();
  app.addHook('preClose', async () => {
    for (const [stream, socket] of open) {
      stream.abort();
      socket.destroy();
    }
  });
  return async (request, reply, stream) => {
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      pragma: 'no-cache',
      'x-request-id': request.id,
      'x-accel-buffering': 'no',
      // A stream's connection is never reused: closing it with the stream lets shutdown finish.
      connection: 'close',
    });
    // Headers now, not with the first event: a client resuming when caught up would otherwise see
    // nothing until the first heartbeat, 15 s later, and may give up.
    raw.flushHeaders();
    const closed = new AbortController();
    open.set(closed, raw.socket ?? { destroy: () => undefined });
    raw.on('close', () => closed.abort());
    try {
      for await (const item of stream(closed.signal)) {
        if (item.type === 'event')
          raw.write(`id: ${item.event.seq}\nevent: ${item.event.kind}\ndata: ${JSON.stringify(item.event)}\n\n`);
        else if (item.type === 'heartbeat') raw.write(': heartbeat\n\n');
        else raw.write('event: end\ndata: {}\n\n');
      }
    } catch (err) {
      request.log.warn({ err: { message: (err as Error).message } }, 'event stream ended by an error');
    } finally {
      open.delete(closed);
      raw.end();
    }
  };
};
