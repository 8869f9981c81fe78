import { context, metrics, type ProxyTracerProvider, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.js';
import { inSpan } from './instruments.js';
import { startTelemetry, type StopTelemetry } from './startTelemetry.js';

/** Counts imports of the module that loads the SDK: startTelemetry may only import it when configured. */
const sdkImports = vi.hoisted(() => ({ count: 0 }));
vi.mock('./sdk.js', async (importOriginal) => {
  sdkImports.count += 1;
  return importOriginal();
});

const warn = () => undefined;
/** The API's global tracer provider is a proxy: what it delegates to is what spans really go to. */
const delegateTracerProvider = (): string =>
  (trace.getTracerProvider() as ProxyTracerProvider).getDelegate().constructor.name;
let stop: StopTelemetry | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

describe('startTelemetry', () => {
  it('with nothing configured loads no SDK and leaves the API no-op globals in place', async () => {
    for (const env of [{}, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' }]) {
      stop = await startTelemetry(loadConfig(env).telemetry, warn);
      expect(sdkImports.count).toBe(0);
      expect(delegateTracerProvider()).toBe('NoopTracerProvider');
      const recorded = await inSpan('probe', {}, async (span) => span.isRecording());
      expect(recorded).toBe(false);
      expect(metrics.getMeterProvider().constructor.name).toBe('NoopMeterProvider');
      await stop();
    }
  });

  it('with an exporter loads the SDK, records spans with nesting, and unregisters it on stop', async () => {
    const exporter = new InMemorySpanExporter();
    stop = await startTelemetry(loadConfig({}).telemetry, warn, { spanExporter: exporter });
    expect(sdkImports.count).toBe(1);
    expect(delegateTracerProvider()).toBe('NodeTracerProvider');
    await inSpan('outer', {}, () => inSpan('inner', {}, async () => undefined));
    const [inner, outer] = exporter.getFinishedSpans();
    expect([inner?.name, outer?.name]).toEqual(['inner', 'outer']);
    expect(inner?.parentSpanContext?.spanId).toBe(outer?.spanContext().spanId);
    expect(outer?.resource.attributes['service.name']).toBe('helix');

    await stop();
    stop = undefined;
    expect(delegateTracerProvider()).toBe('NoopTracerProvider');
    expect(context.active()).toBe(ROOT_CONTEXT);
    expect(await inSpan('after stop', {}, async (span) => span.isRecording())).toBe(false);
  });

  it('a second start in the same process is refused while the first is running', async () => {
    stop = await startTelemetry(loadConfig({}).telemetry, warn, { spanExporter: new InMemorySpanExporter() });
    await expect(
      startTelemetry(loadConfig({}).telemetry, warn, { spanExporter: new InMemorySpanExporter() }),
    ).rejects.toThrow(/already started/);
  });

  it('a failed span records the error code, never the message', async () => {
    const exporter = new InMemorySpanExporter();
    stop = await startTelemetry(loadConfig({}).telemetry, warn, { spanExporter: exporter });
    const failure = Object.assign(new Error('SELECT * FROM runs WHERE objective = secret'), { code: 'SQLITE_BUSY' });
    await expect(inSpan('store', {}, async () => Promise.reject(failure))).rejects.toBe(failure);
    const [span] = exporter.getFinishedSpans();
    expect(span?.attributes).toEqual({ 'error.type': 'SQLITE_BUSY' });
    expect(span?.status.code).toBe(2);
    expect(JSON.stringify(span?.events)).not.toContain('secret');
  });
});
