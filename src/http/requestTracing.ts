import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
} from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ATTR, recordErrorResponse, startSpan, tracingEnabled } from '../telemetry/instruments.js';
import { MCP_PATH } from './resourceIdentity.js';

/** The server span of each request in flight, as the context its route handler runs in. */
const requestContexts = new WeakMap<FastifyRequest, Context>();

/**
 * One SERVER span per request, named by method and route pattern (`/api/v1/agent-runs/:run_id`,
 * never the path or query) and carrying the request id. Hooks and the error handler run outside
 * it; the route handler — where the use case runs — runs inside, so service, store and outbound
 * spans become its children. A caller's W3C `traceparent` makes it part of the caller's trace.
 * Must be registered before any route (it wraps handlers as they are added).
 */
export const registerRequestTracing = (app: FastifyInstance): void => {
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function (request, reply) {
      const traced = requestContexts.get(request);
      return traced === undefined
        ? handler.call(this, request, reply)
        : context.with(traced, () => handler.call(this, request, reply));
    };
  });
  app.addHook('onRequest', (request, _reply, done) => {
    // No SDK registered: no span, and the handler runs without a context (see tracingEnabled).
    if (!tracingEnabled()) return done();
    const route = request.routeOptions.url;
    const span = startSpan(
      route === undefined ? request.method : `${request.method} ${route}`,
      {
        [ATTR.httpMethod]: request.method,
        [ATTR.requestId]: request.id,
        ...(route === undefined ? {} : { [ATTR.httpRoute]: route }),
      },
      SpanKind.SERVER,
      propagation.extract(ROOT_CONTEXT, request.headers),
    );
    requestContexts.set(request, trace.setSpan(ROOT_CONTEXT, span));
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    endRequestSpan(request, reply.statusCode);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    endRequestSpan(request, undefined);
    done();
  });
};

const endRequestSpan = (request: FastifyRequest, status: number | undefined): void => {
  const span = requestSpan(request);
  requestContexts.delete(request);
  if (span === undefined) return;
  if (status !== undefined) span.setAttribute(ATTR.httpStatus, status);
  // OpenTelemetry HTTP conventions: a server span fails on 5xx (or no answer), not on a 4xx refusal.
  if (status === undefined || status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
};

/** The request's server span (undefined before onRequest, e.g. for a router-level refusal). */
const requestSpan = (request: FastifyRequest): Span | undefined =>
  trace.getSpan(requestContexts.get(request) ?? ROOT_CONTEXT);

/** An error answered over HTTP: counted by code and transport (the `/mcp` route or REST), and named on the request's span. */
export const recordRequestError = (request: FastifyRequest, code: string): void =>
  recordErrorResponse(
    code,
    request.routeOptions.url?.startsWith(MCP_PATH) === true ? 'mcp' : 'rest',
    requestSpan(request),
  );
