import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { emptyOutcome } from '../src/domain/turn.js';
import { ScriptedExecutor } from '../src/solver/scriptedExecutor.js';
import { api, idemKey, startTestHelix } from './support/harness.js';
import { storeFlavours } from './support/stores.js';

interface Received {
  readonly path: string;
  readonly contentType: string;
  readonly collectorKey: string | undefined;
  readonly body: Buffer;
}

/** A stand-in OpenTelemetry collector on loopback: records every OTLP/HTTP export and accepts it. */
const startCollector = async (): Promise<{ url: string; received: Received[]; server: Server }> => {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        contentType: req.headers['content-type'] ?? '',
        collectorKey: req.headers['x-collector-key'] as string | undefined,
        body: Buffer.concat(chunks),
      });
      res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/json' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, server };
};

const [sqlite] = storeFlavours();

describe('OTLP export over real HTTP to OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  let collector: Awaited<ReturnType<typeof startCollector>>;
  beforeAll(async () => {
    collector = await startCollector();
  });
  afterEach(() => vi.unstubAllEnvs());
  afterAll(async () => {
    collector.server.closeAllConnections();
    await new Promise((resolve) => collector.server.close(resolve));
  });

  /** Serves one start and one refused request, then stops the server, which flushes both signals. */
  const exportOnce = async (env: Record<string, string>): Promise<Received[]> => {
    collector.received.length = 0;
    const h = await startTestHelix(sqlite!, { executor: new ScriptedExecutor([], emptyOutcome()), env });
    const token = await h.key();
    expect(
      (
        await api(h.url, 'POST', '/api/v1/agent-runs', {
          token,
          idempotencyKey: idemKey('otlp'),
          body: { objective: 'OTLP objective' },
        })
      ).status,
    ).toBe(201);
    expect((await api(h.url, 'GET', '/api/v1/agent-runs/run_x')).status).toBe(401);
    await h.close();
    return [...collector.received];
  };

  it('http/protobuf (the default): spans to /v1/traces and metrics to /v1/metrics, named for the service', async () => {
    const received = await exportOnce({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_SERVICE_NAME: 'helix-otlp-test',
    });
    const traces = received.filter((r) => r.path === '/v1/traces');
    const metrics = received.filter((r) => r.path === '/v1/metrics');
    expect(traces.length).toBeGreaterThan(0);
    expect(metrics.length).toBeGreaterThan(0);
    for (const r of [...traces, ...metrics]) expect(r.contentType).toBe('application/x-protobuf');
    // Protobuf carries strings as raw UTF-8, so names can be found in the bytes.
    const spanBytes = Buffer.concat(traces.map((r) => r.body)).toString('latin1');
    expect(spanBytes).toContain('helix-otlp-test');
    expect(spanBytes).toContain('POST /api/v1/agent-runs');
    expect(spanBytes).toContain('helix.store.transaction');
    const metricBytes = Buffer.concat(metrics.map((r) => r.body)).toString('latin1');
    expect(metricBytes).toContain('helix.error_responses');
    expect(metricBytes).toContain('unauthorized');
  });

  it('http/json, with a signal-specific traces endpoint used as given and the SDK reading OTEL_EXPORTER_OTLP_HEADERS', async () => {
    // Headers (typically the collector's credentials) are read by the exporter from the process environment.
    vi.stubEnv('OTEL_EXPORTER_OTLP_HEADERS', 'x-collector-key=collector-secret');
    const received = await exportOnce({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${collector.url}/custom/traces`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
    const traces = received.filter((r) => r.path === '/custom/traces');
    expect(traces.length).toBeGreaterThan(0);
    expect(traces[0]).toMatchObject({ contentType: 'application/json', collectorKey: 'collector-secret' });
    const exported = traces.flatMap(
      (r) => (JSON.parse(r.body.toString('utf8')) as { resourceSpans: ResourceSpans[] }).resourceSpans,
    );
    expect(exported[0]!.resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'helix' } });
    const names = exported.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans.map((s) => s.name)));
    expect(names).toContain('POST /api/v1/agent-runs');
    expect(names).toContain('GET /api/v1/agent-runs/:run_id');
    expect(received.filter((r) => r.path === '/v1/metrics').every((r) => r.contentType === 'application/json')).toBe(
      true,
    );
  });
});

interface ResourceSpans {
  readonly resource: { readonly attributes: readonly unknown[] };
  readonly scopeSpans: readonly { readonly spans: readonly { readonly name: string }[] }[];
}
