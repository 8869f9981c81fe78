import type { MetricReader } from '@opentelemetry/sdk-metrics';
import type { SpanExporter } from '@opentelemetry/sdk-trace-node';
import type { TelemetryConfig } from '../config/telemetryConfig.js';

/** Replacements for the OTLP exporters; tests pass in-memory ones through the same start-up path. */
export interface TelemetryOverrides {
  /** Receives every span as it ends (no batching), e.g. an InMemorySpanExporter. */
  readonly spanExporter?: SpanExporter;
  /** Replaces the periodic OTLP metric reader, e.g. one a test collects on demand. */
  readonly metricReader?: MetricReader;
}

/** Where the SDK reports its own trouble (an unreachable collector, a refused export). */
export type TelemetryWarn = (message: string) => void;

/** Flushes what is pending and unregisters the SDK; resolves even when the collector is unreachable. */
export type StopTelemetry = () => Promise<void>;

const stopNothing: StopTelemetry = async () => undefined;

/**
 * Start-up step of the composition root. With no signal configured nothing is imported beyond
 * `@opentelemetry/api`, whose no-op tracer and meter the instruments already use; otherwise the
 * SDK is loaded (dynamically, so an unconfigured server never pays for it) and registered globally.
 */
export const startTelemetry = async (config: TelemetryConfig, warn: TelemetryWarn, overrides: TelemetryOverrides = {}): Promise<StopTelemetry> => {
  const traces = overrides.spanExporter !== undefined || config.traces !== undefined;
  const metrics = overrides.metricReader !== undefined || config.metrics !== undefined;
  if (!traces && !metrics) return stopNothing;
  const { installSdk } = await import('./sdk.js');
  return installSdk(config, warn, overrides);
};
