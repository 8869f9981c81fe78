import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';

const telemetry = (env: Record<string, string>) => loadConfig(env).telemetry;

describe('OpenTelemetry configuration', () => {
  it('is off unless an OTLP endpoint is configured, with the service named helix', () => {
    expect(telemetry({})).toEqual({ serviceName: 'helix', traces: undefined, metrics: undefined });
    expect(telemetry({ OTEL_SERVICE_NAME: 'helix-eu-1' }).serviceName).toBe('helix-eu-1');
  });

  it('appends the signal path to OTEL_EXPORTER_OTLP_ENDPOINT and uses http/protobuf by default', () => {
    expect(telemetry({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/' })).toEqual({
      serviceName: 'helix',
      traces: { url: 'http://127.0.0.1:4318/v1/traces', protocol: 'http/protobuf' },
      metrics: { url: 'http://127.0.0.1:4318/v1/metrics', protocol: 'http/protobuf', exportIntervalMs: 60_000 },
    });
    expect(telemetry({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.example.com/otlp' }).traces?.url).toBe(
      'https://collector.example.com/otlp/v1/traces',
    );
  });

  it('a signal-specific endpoint is used as given and turns on only that signal', () => {
    const config = telemetry({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/custom/traces' });
    expect(config.traces).toEqual({ url: 'http://127.0.0.1:4318/custom/traces', protocol: 'http/protobuf' });
    expect(config.metrics).toBeUndefined();
  });

  it('honours the protocol, per signal first, and the metric export interval', () => {
    const config = telemetry({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'http/protobuf',
      OTEL_METRIC_EXPORT_INTERVAL: '15000',
    });
    expect(config.traces?.protocol).toBe('http/json');
    expect(config.metrics).toMatchObject({ protocol: 'http/protobuf', exportIntervalMs: 15_000 });
  });

  it('OTEL_SDK_DISABLED and OTEL_<SIGNAL>_EXPORTER=none turn export off', () => {
    expect(
      telemetry({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' }),
    ).toMatchObject({ traces: undefined, metrics: undefined });
    const config = telemetry({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_METRICS_EXPORTER: 'none' });
    expect(config.metrics).toBeUndefined();
    expect(config.traces).toBeDefined();
  });

  it.each([
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      /grpc is not supported/,
    ],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, /OTEL_EXPORTER_OTLP_ENDPOINT must be an http\(s\) URL/],
    [
      { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://user:pw@collector.example.com/v1/traces' },
      /OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http\(s\) URL without credentials/,
    ],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_EXPORTER: 'console' },
      /OTEL_TRACES_EXPORTER must be otlp or none/,
    ],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_METRIC_EXPORT_INTERVAL: '10' },
      /OTEL_METRIC_EXPORT_INTERVAL must be between 1000 and 3600000/,
    ],
  ])('refuses %o at start-up', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('never echoes the credentials of a refused endpoint', () => {
    let message = '';
    try {
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://user:hunter2@collector.example.com' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/without credentials/);
    expect(message).not.toContain('hunter2');
  });
});
