import { context, diag, DiagLogLevel, metrics, propagation, type ProxyTracerProvider, trace } from '@opentelemetry/api';
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
  type Resource,
} from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader, type MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { HELIX_VERSION } from '../version.js';
import { bindInstruments } from './instruments.js';
import type { OtlpTarget, StopTelemetry, TelemetryConfig, TelemetryOverrides, TelemetryWarn } from './types.js';

/** Only ever imported dynamically by startTelemetry: this module is what loads the SDK. */

const OTLP_EXPORT_TIMEOUT_MS = 30_000;
/** Stopping waits this long for the last export: an unreachable collector must not hold up shutdown. */
export const FLUSH_ON_STOP_MS = 5_000;

/** The API's global tracer provider is always its proxy; an SDK's registration gives it a delegate. */
const tracerProviderRegistered = (): boolean =>
  (trace.getTracerProvider() as ProxyTracerProvider).getDelegateTracer('helix') !== undefined;

/** OTEL_RESOURCE_ATTRIBUTES as the SDK reads it, then the service's own name and version on top. */
const helixResource = (config: TelemetryConfig): Resource =>
  defaultResource()
    .merge(detectResources({ detectors: [envDetector] }))
    .merge(resourceFromAttributes({ 'service.name': config.serviceName, 'service.version': HELIX_VERSION }));

const spanProcessor = async (
  target: OtlpTarget | undefined,
  overrides: TelemetryOverrides,
): Promise<SpanProcessor | undefined> => {
  if (overrides.spanExporter !== undefined) return new SimpleSpanProcessor(overrides.spanExporter);
  if (target === undefined) return undefined;
  const { OTLPTraceExporter } =
    target.protocol === 'http/json'
      ? await import('@opentelemetry/exporter-trace-otlp-http')
      : await import('@opentelemetry/exporter-trace-otlp-proto');
  return new BatchSpanProcessor(new OTLPTraceExporter({ url: target.url }));
};

const metricReader = async (
  target: TelemetryConfig['metrics'],
  overrides: TelemetryOverrides,
): Promise<MetricReader | undefined> => {
  if (overrides.metricReader !== undefined) return overrides.metricReader;
  if (target === undefined) return undefined;
  const { OTLPMetricExporter } =
    target.protocol === 'http/json'
      ? await import('@opentelemetry/exporter-metrics-otlp-http')
      : await import('@opentelemetry/exporter-metrics-otlp-proto');
  return new PeriodicExportingMetricReader({
    exporter: new OTLPMetricExporter({ url: target.url }),
    exportIntervalMillis: target.exportIntervalMs,
    exportTimeoutMillis: Math.min(target.exportIntervalMs, OTLP_EXPORT_TIMEOUT_MS),
  });
};

/**
 * Registers the tracer provider (with the AsyncLocalStorage context manager and W3C trace-context
 * propagation, so spans nest across awaits) and the meter provider as the process's globals.
 * One Helix per process owns them: a second start while they are registered is refused.
 */
export const installSdk = async (
  config: TelemetryConfig,
  warn: TelemetryWarn,
  overrides: TelemetryOverrides,
): Promise<StopTelemetry> => {
  if (tracerProviderRegistered()) throw new Error('OpenTelemetry is already started in this process');
  const resource = helixResource(config);
  const processor = await spanProcessor(config.traces, overrides);
  const reader = await metricReader(config.metrics, overrides);
  const tracerProvider =
    processor === undefined ? undefined : new NodeTracerProvider({ resource, spanProcessors: [processor] });
  const meterProvider = reader === undefined ? undefined : new MeterProvider({ resource, readers: [reader] });
  if (meterProvider !== undefined && !metrics.setGlobalMeterProvider(meterProvider)) {
    await meterProvider.shutdown();
    throw new Error('OpenTelemetry is already started in this process');
  }
  tracerProvider?.register();
  const report = (message: string) => warn(`opentelemetry: ${message}`);
  diag.setLogger(
    { error: report, warn: report, info: () => undefined, debug: () => undefined, verbose: () => undefined },
    { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
  );
  bindInstruments();

  return async () => {
    if (tracerProvider !== undefined) {
      trace.disable();
      context.disable();
      propagation.disable();
    }
    if (meterProvider !== undefined) metrics.disable();
    bindInstruments();
    // Flushes pending spans and a last metric collection; export failures are reported through diag.
    const flushed = Promise.allSettled([tracerProvider?.shutdown(), meterProvider?.shutdown()]).then(() => true);
    const bound = new Promise<false>((resolve) => setTimeout(() => resolve(false), FLUSH_ON_STOP_MS).unref());
    if (!(await Promise.race([flushed, bound])))
      report(`the last export did not finish within ${FLUSH_ON_STOP_MS} ms; it was dropped`);
    diag.disable();
  };
};
