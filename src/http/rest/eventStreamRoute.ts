import type { FastifyInstance } from 'fastify';
import type { Authenticator } from '../../auth/authenticate.js';
import type { RunService } from '../../service/runs/runService.js';
import { enforcePrincipalLimit } from '../hardening/rateLimits.js';
import { authenticateRequest } from '../principalHook.js';
import { RUNS_PATH } from './runRoutes.js';

export const EVENT_STREAM_PATH = `${RUNS_PATH}/:run_id/events/stream`;

/**
 * Server-Sent Events (`text/event-stream`): `id:` is the event seq, so a browser or client that
 * reconnects with `Last-Event-ID` resumes exactly after the last event it saw. Comment lines are
 * heartbeats; an `end` event closes a stream whose run is terminal.
 */
export const registerEventStreamRoute = (
  app: FastifyInstance,
  service: RunService,
  authenticator: Authenticator,
): void => {
  // Open streams would hold shutdown forever: closing the server ends them first.
  const open = new Map<AbortController, { destroy(): void }>();
  app.addHook('preClose', async () => {
    for (const [stream, socket] of open) {
      stream.abort();
      socket.destroy();
    }
  });
  app.get<{ Params: { run_id: string } }>(EVENT_STREAM_PATH, async (request, reply) => {
    const principal = await authenticateRequest(authenticator, request);
    request.principalId = principal.credentialId;
    enforcePrincipalLimit(request, principal, 'rest');
    const lastEventId = request.headers['last-event-id'];
    const stream = await service.eventStream(
      principal,
      request.params.run_id,
      request.query,
      typeof lastEventId === 'string' ? lastEventId : undefined,
    );

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
      request.log.warn(
        { request_id: request.id, err: { message: (err as Error).message } },
        'event stream ended by an error',
      );
    } finally {
      open.delete(closed);
      raw.end();
    }
  });
};
