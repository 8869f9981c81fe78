import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-node';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { inSpan, tracingEnabled } from './instruments.js';
import { startTelemetry } from './startTelemetry.js';

describe('spans with and without a registered SDK', () => {
  it('without an SDK: no span is recorded, and the wrapped work still returns and throws as itself', async () => {
    expect(tracingEnabled()).toBe(false);
    await expect(inSpan('helix.test', {}, async (span) => (span.isRecording() ? 'recorded' : 'ran'))).resolves.toBe(
      'ran',
    );
    await expect(
      inSpan('helix.test', {}, async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
  });

  it('with an SDK: every span is recorded, until the SDK is stopped', async () => {
    const spans = new InMemorySpanExporter();
    const stop = await startTelemetry(loadConfig({}).telemetry, () => undefined, { spanExporter: spans });
    try {
      expect(tracingEnabled()).toBe(true);
      await expect(inSpan('helix.test', {}, async (span) => span.isRecording())).resolves.toBe(true);
      await expect(
        inSpan('helix.failing', {}, async () => {
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect(spans.getFinishedSpans().map((s) => s.name)).toEqual(['helix.test', 'helix.failing']);
    } finally {
      await stop();
    }
    expect(tracingEnabled()).toBe(false);
  });
});
