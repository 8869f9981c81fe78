import type { MetricReader } from '@opentelemetry/sdk-metrics';
import type { SpanExporter } from '@opentelemetry/sdk-trace-node';

/** OTLP encodings Helix ships exporters for; OpenTelemetry's default is http/protobuf. */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

/** Where one signal goes: the OTLP/HTTP URL it is POSTed to and its encoding. */
export interface OtlpTarget {
  readonly url: string;
  readonly protocol: OtlpProtocol;
}

/**
 * OpenTelemetry export. A signal without an endpoint is off, and with both off the SDK is never
 * loaded. Headers, timeout, compression and TLS files (`OTEL_EXPORTER_OTLP_*`) are read by the SDK's
 * exporters themselves from the process environment.
 */
export interface TelemetryConfig {
  readonly serviceName: string;
  readonly traces: OtlpTarget | undefined;
  readonly metrics: (OtlpTarget & { readonly exportIntervalMs: number }) | undefined;
}

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
