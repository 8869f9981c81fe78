import { SpanKind } from '@opentelemetry/api';
import { MetricReader, type DataPoint, type Histogram } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyOutcome } from '../src/domain/turn.js';
import type { TurnInput } from '../src/solver/executor.js';
import { ScriptedExecutor } from '../src/solver/scriptedExecutor.js';
import { groundedTurn, LIBRARY_SCOPES } from './support/groundedTurn.js';
import { api, idemKey, startTestHelix, waitFor, type TestHelix } from './support/harness.js';
import { connectMcp, rawMcp } from './support/mcpClient.js';
import { storeFlavours } from './support/stores.js';

const RUNS = '/api/v1/agent-runs';
const OBJECTIVE = 'Objective text 5d1e: how does the mechanism work?';
const INSTRUCTION = 'Instruction text 8c2a: find the mechanism';

/** A reader the test collects on demand, in place of the periodic OTLP one. */
class CollectingReader extends MetricReader {
  protected override onForceFlush = async (): Promise<void> => undefined;
  protected override onShutdown = async (): Promise<void> => undefined;
}

/** A turn that waits for its signal: only the watchdog (HELIX_AGENT_TURN_TIMEOUT_MS) ends it. */
const hangingTurn = (input: TurnInput) =>
  new Promise<never>((_, reject) =>
    input.signal.addEventListener('abort', () => reject(input.signal.reason as Error), { once: true }),
  );

describe.each(storeFlavours())('OpenTelemetry on $name', (flavour) => {
  const spans = new InMemorySpanExporter();
  const reader = new CollectingReader();
  let h: TestHelix;
  let token: string;

  beforeAll(async () => {
    // The answer meets the objective's answer contract: it says what the objective asks about, marker and all.
    const executor = new ScriptedExecutor(
      [groundedTurn('The objective text 5d1e mechanism works as both passages describe.'), hangingTurn],
      emptyOutcome(),
    );
    h = await startTestHelix(flavour, {
      executor,
      env: { HELIX_AGENT_DATABASE_SCOPES: 'research_library', HELIX_AGENT_TURN_TIMEOUT_MS: '1000' },
      telemetry: { spanExporter: spans, metricReader: reader },
    });
    token = await h.key(LIBRARY_SCOPES);
  });
  afterAll(() => h.close());

  /** Server spans end in onResponse, which may run just after the client has its answer. */
  const finished = async (predicate: (span: ReadableSpan) => boolean): Promise<ReadableSpan> => {
    await waitFor(async () => spans.getFinishedSpans().some(predicate));
    return spans.getFinishedSpans().find(predicate)!;
  };
  const childrenOf = (parent: ReadableSpan, name: string): ReadableSpan[] =>
    spans
      .getFinishedSpans()
      .filter((s) => s.name === name && s.parentSpanContext?.spanId === parent.spanContext().spanId);
  const dataPoints = async (metric: string, attributes: Record<string, string>): Promise<DataPoint<unknown>[]> => {
    const { resourceMetrics } = await reader.collect();
    const found = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === metric);
    return (found?.dataPoints ?? []).filter((p) =>
      Object.entries(attributes).every(([k, v]) => p.attributes[k] === v),
    ) as DataPoint<unknown>[];
  };
  const counted = async (metric: string, attributes: Record<string, string>): Promise<number> =>
    (await dataPoints(metric, attributes)).reduce((sum, p) => sum + (p.value as number), 0);
  const errorCount = (code: string, transport: 'rest' | 'mcp') =>
    counted('helix.error_responses', { 'helix.error.code': code, 'helix.transport': transport });
  const startRun = async (requestId: string) => {
    const res = await api(h.url, 'POST', RUNS, {
      token,
      idempotencyKey: idemKey('otel'),
      headers: { 'x-request-id': requestId },
      body: { objective: OBJECTIVE, database_scope: ['research_library'] },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.run_id as string;
  };

  it('a REST start and continue: request spans with the request id, the turn and its store transactions nested under them', async () => {
    const runId = await startRun('otel-start-1');
    const res = await api(h.url, 'POST', `${RUNS}/${runId}/continue`, {
      token,
      idempotencyKey: idemKey('otel'),
      headers: { 'x-request-id': 'otel-continue-1' },
      body: { expected_version: 1, instruction: INSTRUCTION },
    });
    expect(res.body).toMatchObject({ lifecycle_status: 'completed', completion_status: 'completed' });

    const start = await finished((s) => s.attributes['helix.request_id'] === 'otel-start-1');
    expect(start).toMatchObject({ name: 'POST /api/v1/agent-runs', kind: SpanKind.SERVER });
    expect(start.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': RUNS,
      'http.response.status_code': 201,
    });
    expect(childrenOf(start, 'helix.store.transaction')).toHaveLength(1);

    const request = await finished((s) => s.attributes['helix.request_id'] === 'otel-continue-1');
    expect(request.name).toBe('POST /api/v1/agent-runs/:run_id/continue');
    expect(request.attributes['http.response.status_code']).toBe(200);
    const [turn] = childrenOf(request, 'helix.turn');
    expect(turn?.spanContext().traceId).toBe(request.spanContext().traceId);
    expect(turn?.attributes['helix.run_id']).toBe(runId);
    const [claim] = childrenOf(turn!, 'helix.turn.claim');
    const [execute] = childrenOf(turn!, 'helix.turn.execute');
    const [finalize] = childrenOf(turn!, 'helix.turn.finalize');
    expect(execute?.attributes).toMatchObject({
      'helix.run_id': runId,
      'helix.turn': 1,
      'helix.turn.status': 'succeeded',
    });
    expect(finalize?.attributes).toMatchObject({
      'helix.run.completion': 'completed',
      'helix.run.lifecycle': 'completed',
    });
    const system = flavour.name === 'sqlite' ? 'sqlite' : 'postgresql';
    for (const step of [claim!, finalize!]) {
      const [transaction] = childrenOf(step, 'helix.store.transaction');
      expect(transaction?.attributes).toMatchObject({ 'db.system.name': system, 'helix.store.attempts': 1 });
    }

    expect(
      await counted('helix.run.outcomes', { 'helix.run.completion': 'completed', 'helix.run.lifecycle': 'completed' }),
    ).toBe(1);
    const [duration] = await dataPoints('helix.turn.duration', { 'helix.turn.status': 'succeeded' });
    expect((duration?.value as Histogram | undefined)?.count).toBe(1);
    // Seconds, with buckets up to the 900-second turn timeout ceiling (the SDK default is tuned for milliseconds).
    expect((duration?.value as Histogram | undefined)?.buckets.boundaries.at(-1)).toBe(900);
  });

  it('a turn stopped by the watchdog is counted as turn_timeout', async () => {
    const runId = await startRun('otel-timeout-1');
    const res = await api(h.url, 'POST', `${RUNS}/${runId}/continue`, {
      token,
      idempotencyKey: idemKey('otel'),
      body: { expected_version: 1, instruction: INSTRUCTION },
    });
    expect(res.body).toMatchObject({ lifecycle_status: 'waiting', completion_status: 'blocked' });
    const [timedOut] = await dataPoints('helix.turn.duration', {
      'helix.turn.status': 'failed',
      'helix.turn.failure_code': 'turn_timeout',
    });
    expect((timedOut?.value as Histogram | undefined)?.count).toBe(1);
    expect(
      await counted('helix.run.outcomes', { 'helix.run.completion': 'blocked', 'helix.run.lifecycle': 'waiting' }),
    ).toBe(1);
  });

  it('an MCP tools/call is a tool span under the /mcp request span; a tool error is counted for mcp', async () => {
    const runId = await startRun('otel-mcp-1');
    const client = await connectMcp(h.url, token);
    try {
      expect((await client.callTool({ name: 'helix_run_inspect', arguments: { run_id: runId } })).isError).toBeFalsy();
      const before = await errorCount('not_found', 'mcp');
      const missing = await client.callTool({
        name: 'helix_run_inspect',
        arguments: { run_id: 'run_doesnotexist0000000000000' },
      });
      expect(missing.isError).toBe(true);
      expect(await errorCount('not_found', 'mcp')).toBe(before + 1);
    } finally {
      await client.close();
    }
    const [ok, failed] = spans.getFinishedSpans().filter((s) => s.name === 'tools/call helix_run_inspect');
    expect(ok?.attributes).toEqual({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'helix_run_inspect' });
    expect(failed?.attributes['helix.error.code']).toBe('not_found');
    const parent = await finished((s) => s.spanContext().spanId === ok?.parentSpanContext?.spanId);
    expect(parent).toMatchObject({ name: 'POST /mcp', kind: SpanKind.SERVER });
    expect(childrenOf(ok!, 'helix.store.transaction')).toEqual([]);
  });

  it('error responses are counted by code and transport, and named on the request span', async () => {
    const before = {
      unauthorized: await errorCount('unauthorized', 'rest'),
      invalidToken: await errorCount('invalid_token', 'rest'),
      mcpUnauthorized: await errorCount('unauthorized', 'mcp'),
    };
    expect((await api(h.url, 'GET', `${RUNS}/run_x`, { headers: { 'x-request-id': 'otel-401' } })).status).toBe(401);
    expect((await api(h.url, 'GET', `${RUNS}/run_x`, { token: 'hlx_not_a_real_key_0000000000000000' })).status).toBe(
      401,
    );
    expect((await rawMcp(h.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(401);

    expect(await errorCount('unauthorized', 'rest')).toBe(before.unauthorized + 1);
    expect(await errorCount('invalid_token', 'rest')).toBe(before.invalidToken + 1);
    expect(await errorCount('unauthorized', 'mcp')).toBe(before.mcpUnauthorized + 1);
    const refused = await finished((s) => s.attributes['helix.request_id'] === 'otel-401');
    expect(refused.attributes).toMatchObject({
      'http.route': `${RUNS}/:run_id`,
      'http.response.status_code': 401,
      'helix.error.code': 'unauthorized',
    });
  });

  it("a caller's W3C traceparent puts the request span in the caller's trace", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    await api(h.url, 'GET', '/healthz', {
      headers: { traceparent: `00-${traceId}-${parentId}-01`, 'x-request-id': 'otel-traceparent' },
    });
    const span = await finished((s) => s.attributes['helix.request_id'] === 'otel-traceparent');
    expect(span.spanContext().traceId).toBe(traceId);
    expect(span.parentSpanContext?.spanId).toBe(parentId);
  });

  it('no span or metric attribute carries the bearer token, the objective or instruction, or a query string', async () => {
    const runId = await startRun('otel-secrets-1');
    await api(h.url, 'GET', `${RUNS}/${runId}?access_token=${token}&note=query-secret-77`, {
      token,
      headers: { 'x-request-id': 'otel-secrets-2' },
    });
    await finished((s) => s.attributes['helix.request_id'] === 'otel-secrets-2');
    const recorded = JSON.stringify(
      spans
        .getFinishedSpans()
        .map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status })),
    );
    const { resourceMetrics } = await reader.collect();
    const metricAttributes = JSON.stringify(
      resourceMetrics.scopeMetrics.flatMap((s) => s.metrics.flatMap((m) => m.dataPoints.map((p) => p.attributes))),
    );
    for (const text of [recorded, metricAttributes]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(token.slice(0, 12));
      expect(text).not.toContain('5d1e');
      expect(text).not.toContain('8c2a');
      expect(text).not.toContain('query-secret-77');
      expect(text.toLowerCase()).not.toContain('bearer');
    }
    expect(recorded).toContain('GET /api/v1/agent-runs/:run_id');
  });
});
