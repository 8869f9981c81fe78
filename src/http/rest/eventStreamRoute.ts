import type { FastifyInstance } from 'fastify';
import type { Authenticator } from '../../auth/authenticate.js';
import type { RunService } from '../../service/runs/runService.js';
import { eventStreamSender } from '../eventStreamResponse.js';
import { enforcePrincipalLimit } from '../hardening/rateLimits.js';
import { authenticateRequest } from '../principalHook.js';
import { RUNS_PATH } from './runRoutes.js';

export const EVENT_STREAM_PATH = `${RUNS_PATH}/:run_id/events/stream`;

/** The run's events as Server-Sent Events (src/http/eventStreamResponse.ts), for a bearer caller. */
export const registerEventStreamRoute = (
  app: FastifyInstance,
  service: RunService,
  authenticator: Authenticator,
): void => {
  const send = eventStreamSender(app);
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
    await send(request, reply, stream);
  });
};
