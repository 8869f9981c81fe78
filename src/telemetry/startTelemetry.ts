import type { StopTelemetry, TelemetryConfig, TelemetryOverrides, TelemetryWarn } from './types.js';

export type { StopTelemetry, TelemetryOverrides, TelemetryWarn } from './types.js';

const stopNothing: StopTelemetry = async () => undefined;

/**
 * Start-up step of the composition root. With no signal configured nothing is imported beyond
 * `@opentelemetry/api`, whose no-op tracer and meter the instruments already use; otherwise the
 * SDK is loaded (dynamically, so an unconfigured server never pays for it) and registered globally.
 */
export const startTelemetry = async (
  config: TelemetryConfig,
  warn: TelemetryWarn,
  overrides: TelemetryOverrides = {},
): Promise<StopTelemetry> => {
  const traces = overrides.spanExporter !== undefined || config.traces !== undefined;
  const metrics = overrides.metricReader !== undefined || config.metrics !== undefined;
  if (!traces && !metrics) return stopNothing;
  const { installSdk } = await import('./sdk.js');
  return installSdk(config, warn, overrides);
};
