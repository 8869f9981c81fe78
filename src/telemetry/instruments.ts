import {
  INVALID_SPAN_CONTEXT,
  metrics,
  ProxyTracerProvider,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Counter,
  type Histogram,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { HELIX_VERSION } from '../version.js';

/**
 * What Helix records, by name. Only `@opentelemetry/api` is imported here: until startTelemetry
 * installs the SDK, every call below is the API's no-op.
 *
 * Attributes carry identifiers and codes only — never a token, a query string, an objective,
 * prompt or answer text, or an error message (messages can quote request data).
 */

/** Attribute names; OpenTelemetry semantic conventions where one exists, `helix.*` otherwise. */
export const ATTR = {
  requestId: 'helix.request_id',
  runId: 'helix.run_id',
  turn: 'helix.turn',
  turnStatus: 'helix.turn.status',
  failureCode: 'helix.turn.failure_code',
  lifecycle: 'helix.run.lifecycle',
  completion: 'helix.run.completion',
  errorCode: 'helix.error.code',
  transport: 'helix.transport',
  capabilityId: 'helix.capability_id',
  storeAttempts: 'helix.store.attempts',
  errorType: 'error.type',
  httpMethod: 'http.request.method',
  httpRoute: 'http.route',
  httpStatus: 'http.response.status_code',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  dbSystem: 'db.system.name',
  mcpMethod: 'mcp.method.name',
  toolName: 'gen_ai.tool.name',
  modelProvider: 'gen_ai.provider.name',
  modelName: 'gen_ai.request.model',
} as const;

export const METRIC = {
  errorResponses: 'helix.error_responses',
  turnDuration: 'helix.turn.duration',
  runOutcomes: 'helix.run.outcomes',
} as const;

export const TRANSPORTS = ['rest', 'mcp'] as const;
export type Transport = (typeof TRANSPORTS)[number];

/** Turns run from milliseconds to the 900-second ceiling of HELIX_AGENT_TURN_TIMEOUT_MS. */
const TURN_SECONDS_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 900];

interface Instruments {
  /** Whether a tracer provider (an SDK) is registered; without one every span is a no-op. */
  readonly tracing: boolean;
  readonly tracer: Tracer;
  readonly errorResponses: Counter;
  readonly turnDuration: Histogram;
  readonly runOutcomes: Counter;
}

const bind = (): Instruments => {
  const meter = metrics.getMeter('helix', HELIX_VERSION);
  const provider = trace.getTracerProvider();
  return {
    // The global provider is a proxy that delegates to whatever an SDK registers; with no delegate, spans do nothing.
    tracing:
      !(provider instanceof ProxyTracerProvider) || provider.getDelegateTracer('helix', HELIX_VERSION) !== undefined,
    tracer: trace.getTracer('helix', HELIX_VERSION),
    errorResponses: meter.createCounter(METRIC.errorResponses, {
      unit: '{response}',
      description: 'Error responses (REST bodies and MCP tool errors) by error code and transport',
    }),
    turnDuration: meter.createHistogram(METRIC.turnDuration, {
      unit: 's',
      description: 'Time a turn spent executing, by outcome status and failure code',
      advice: { explicitBucketBoundaries: TURN_SECONDS_BUCKETS },
    }),
    runOutcomes: meter.createCounter(METRIC.runOutcomes, {
      unit: '{turn}',
      description: 'Finalized turns by the run completion and lifecycle they left',
    }),
  };
};

let current = bind();

/**
 * Re-reads the global providers. The metrics API has no proxy meter, so instruments created before
 * the SDK registered would stay no-ops forever; startTelemetry calls this after (un)registering.
 */
export const bindInstruments = (): void => {
  current = bind();
};

const SAFE_CODE = /^[A-Za-z0-9_.-]{1,64}$/;

/** `error.type`: a stable code (HelixError, SQLSTATE, errno) or the error's class, never its message. */
export const errorType = (err: unknown): string => {
  const code = (err as { code?: unknown } | null | undefined)?.code;
  if (typeof code === 'string' && SAFE_CODE.test(code)) return code;
  return err instanceof Error && SAFE_CODE.test(err.name) ? err.name : 'unknown';
};

/**
 * Whether spans are recorded anywhere. Without a registered SDK the span machinery (a context per
 * span, attribute objects, the request's context around its handler) is skipped outright: issue
 * 19's profiles showed it as a few per cent of every request for spans nobody receives. Like the
 * instruments, this is read again by bindInstruments when an SDK is (un)registered.
 */
export const tracingEnabled = (): boolean => current.tracing;

/** What `fn` gets as its span when nothing is recorded: the API's own non-recording span. */
const UNRECORDED = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** Runs `fn` in a child span of the active one; a throw marks the span failed with its `error.type`. */
export const inSpan = <T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> =>
  !current.tracing
    ? fn(UNRECORDED)
    : current.tracer.startActiveSpan(name, { kind, attributes }, async (span) => {
        try {
          return await fn(span);
        } catch (err) {
          span.setAttribute(ATTR.errorType, errorType(err));
          span.setStatus({ code: SpanStatusCode.ERROR });
          throw err;
        } finally {
          span.end();
        }
      });

/** `fn` with every call in its own span: wraps a use-case step without re-indenting it. */
export const traced =
  <A extends unknown[], R>(name: string, fn: (...args: A) => Promise<R>): ((...args: A) => Promise<R>) =>
  (...args) =>
    inSpan(name, {}, () => fn(...args));

/** An outbound HTTP call: host and port only, since a path or query can carry search terms or ids. */
export const inClientSpan = <T>(
  method: string,
  url: URL,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
): Promise<T> =>
  inSpan(
    method,
    {
      [ATTR.httpMethod]: method,
      [ATTR.serverAddress]: url.hostname,
      [ATTR.serverPort]: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
      ...attributes,
    },
    fn,
    SpanKind.CLIENT,
  );

/** Starts a span that is not made active (the HTTP server span, whose context the route handler enters). */
export const startSpan = (name: string, attributes: Attributes, kind: SpanKind, parent: Context): Span =>
  current.tracer.startSpan(name, { kind, attributes }, parent);

/** An error answered to a caller (REST body or MCP tool error): counted, and named on its span. */
export const recordErrorResponse = (code: string, transport: Transport, span: Span | undefined): void => {
  span?.setAttribute(ATTR.errorCode, code);
  current.errorResponses.add(1, { [ATTR.errorCode]: code, [ATTR.transport]: transport });
};

/** How one executed turn ended (status and sanitized failure code, e.g. `turn_timeout`), on its span and histogram. */
export const recordTurn = (span: Span, milliseconds: number, status: string, failureCode: string | undefined): void => {
  const attributes = {
    [ATTR.turnStatus]: status,
    ...(failureCode === undefined ? {} : { [ATTR.failureCode]: failureCode }),
  };
  span.setAttributes(attributes);
  current.turnDuration.record(Math.max(0, milliseconds) / 1000, attributes);
};

/** The state a finalized turn left its run in, on the active (finalize) span and the outcome counter. */
export const recordRunOutcome = (completion: string, lifecycle: string): void => {
  const attributes = { [ATTR.completion]: completion, [ATTR.lifecycle]: lifecycle };
  trace.getActiveSpan()?.setAttributes(attributes);
  current.runOutcomes.add(1, attributes);
};
