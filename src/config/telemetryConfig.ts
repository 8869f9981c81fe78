import { OTLP_PROTOCOLS, type OtlpProtocol, type OtlpTarget, type TelemetryConfig } from '../telemetry/types.js';
import { ConfigError, endpoint, integer, value, type Env } from './env.js';

export { OTLP_PROTOCOLS, type OtlpProtocol, type OtlpTarget, type TelemetryConfig } from '../telemetry/types.js';

export const DEFAULT_SERVICE_NAME = 'helix';
export const METRIC_EXPORT_INTERVAL = { default: 60_000, min: 1_000, max: 3_600_000 } as const;

const SIGNAL_PATHS = { TRACES: '/v1/traces', METRICS: '/v1/metrics' } as const;
type Signal = keyof typeof SIGNAL_PATHS;

const otlpTarget = (env: Env, signal: Signal): OtlpTarget | undefined => {
  const exporter = value(env, `OTEL_${signal}_EXPORTER`) ?? 'otlp';
  if (exporter === 'none') return undefined;
  if (exporter !== 'otlp') throw new ConfigError(`OTEL_${signal}_EXPORTER must be otlp or none`);
  // OpenTelemetry SDK spec: the signal-specific URL is used as given; the base one gets /v1/<signal>.
  const base = endpoint(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  const url =
    endpoint(env, `OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`) ??
    (base === undefined ? undefined : `${base}${SIGNAL_PATHS[signal]}`);
  if (url === undefined) return undefined;
  const protocol =
    value(env, `OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`) ?? value(env, 'OTEL_EXPORTER_OTLP_PROTOCOL') ?? 'http/protobuf';
  if (!(OTLP_PROTOCOLS as readonly string[]).includes(protocol)) {
    throw new ConfigError(
      `OTEL_EXPORTER_OTLP_PROTOCOL (or OTEL_EXPORTER_OTLP_${signal}_PROTOCOL) must be ${OTLP_PROTOCOLS.join(' or ')}; grpc is not supported`,
    );
  }
  return { url, protocol: protocol as OtlpProtocol };
};

export const telemetryConfig = (env: Env): TelemetryConfig => {
  const serviceName = value(env, 'OTEL_SERVICE_NAME') ?? DEFAULT_SERVICE_NAME;
  if (value(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true')
    return { serviceName, traces: undefined, metrics: undefined };
  const metrics = otlpTarget(env, 'METRICS');
  const interval = METRIC_EXPORT_INTERVAL;
  return {
    serviceName,
    traces: otlpTarget(env, 'TRACES'),
    metrics:
      metrics === undefined
        ? undefined
        : {
            ...metrics,
            exportIntervalMs: integer(env, 'OTEL_METRIC_EXPORT_INTERVAL', interval.default, interval.min, interval.max),
          },
  };
};
