// ING-01..ING-03, PRB-02: the connector's wire protocol (connectors/minecraft/src/wire.ts) and
// Helix's ingress schemas (src/api/roomIngressSchemas.ts, src/api/roomObservationSchemas.ts) are
// written twice, in two packages; these checks keep them from drifting apart.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REQUEST_SCHEMAS, snapshot as connectorSnapshot } from '../connectors/minecraft/src/wire.js';
import { MinecraftProbeResultSchema, MinecraftSnapshotSchema } from '../src/api/roomObservationSchemas.js';
import {
  HeartbeatRequestSchema,
  INGRESS_LIMITS,
  ManifestRequestSchema,
  ProbePollRequestSchema,
  ProbeResultRequestSchema,
  WorldEventBatchRequestSchema,
} from '../src/api/roomIngressSchemas.js';
import { loadConfig } from '../src/config.js';
import {
  batchBody,
  heartbeatBody,
  largestSnapshot,
  manifestBody,
  newEpoch,
  pollBody,
  probeResultBody,
  snapshot,
} from './support/ingressBodies.js';

const AT = Date.UTC(2026, 11, 1, 12);
const WORLD = 'minecraft:overworld';
const epoch = newEpoch();

const HELIX_SCHEMAS = {
  manifest: ManifestRequestSchema,
  heartbeat: HeartbeatRequestSchema,
  'world-events/batch': WorldEventBatchRequestSchema,
  'probes/pending': ProbePollRequestSchema,
  'probes/result': ProbeResultRequestSchema,
} as const;

const bodies = {
  manifest: manifestBody(epoch, AT, WORLD),
  heartbeat: heartbeatBody(epoch, AT, AT),
  heartbeatBeforeAnySnapshot: heartbeatBody(epoch, AT, null),
  batch: batchBody(epoch, AT, WORLD, [snapshot(), largestSnapshot()]),
  poll: pollBody(epoch, AT),
  completed: probeResultBody(epoch, AT, { probe_id: 'probe_0123456789abcdef01', probe_type: 'x.y' }),
  unsupported: probeResultBody(epoch, AT, { probe_id: 'probe_0123456789abcdef01', probe_type: 'x.y' }, false),
};
const cases = [
  ['manifest', bodies.manifest],
  ['heartbeat', bodies.heartbeat],
  ['heartbeat', bodies.heartbeatBeforeAnySnapshot],
  ['world-events/batch', bodies.batch],
  ['probes/pending', bodies.poll],
  ['probes/result', bodies.completed],
  ['probes/result', bodies.unsupported],
] as const;

describe('the connector wire protocol and the Helix ingress schemas agree', () => {
  it.each(cases)('ING-01: the connector accepts and Helix accepts its %s body', (route, body) => {
    expect(REQUEST_SCHEMAS[route].safeParse(body).success).toBe(true);
    const parsed = HELIX_SCHEMAS[route].safeParse(body);
    expect(parsed.error?.issues ?? []).toEqual([]);
    // Helix keeps every field as sent: the stored body hash covers what the connector signed off.
    expect(parsed.data).toEqual(body);
  });

  it('ING-03: every snapshot and probe result the connector can build satisfies the Minecraft profile', () => {
    for (const s of [snapshot(), largestSnapshot()]) expect(MinecraftSnapshotSchema.safeParse(s).success).toBe(true);
    expect(MinecraftProbeResultSchema.safeParse(bodies.completed.result).success).toBe(true);
  });

  it('ING-03: the bounds agree: the connector largest batch fits the default body limit; 17 events do not parse', () => {
    const full = batchBody(epoch, AT, WORLD, Array.from({ length: INGRESS_LIMITS.maxBatchEvents }, largestSnapshot));
    expect(REQUEST_SCHEMAS['world-events/batch'].safeParse(full).success).toBe(true);
    expect(WorldEventBatchRequestSchema.safeParse(full).success).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(full))).toBeLessThan(loadConfig({}).roomIngressBodyLimitBytes);
    const over = { ...full, events: [...full.events, full.events[0]] };
    expect(REQUEST_SCHEMAS['world-events/batch'].safeParse(over).success).toBe(false);
    expect(WorldEventBatchRequestSchema.safeParse(over).success).toBe(false);
  });

  it.each(cases)('SLR-05: Helix refuses an unknown field in a %s body', (route, body) => {
    const parsed = HELIX_SCHEMAS[route].safeParse({ ...body, extra: 1 });
    expect(parsed.error?.issues.map((i) => i.code)).toEqual(['unrecognized_keys']);
  });

  it('ING-03 (property): on any one-field change of a snapshot, the connector and Helix agree whether it is valid', () => {
    const base = largestSnapshot();
    const paths: string[][] = [];
    // Every field once; of a list, its first and last element (the others have the same rules).
    const walk = (value: unknown, path: string[]) => {
      paths.push(path);
      if (Array.isArray(value))
        for (const i of new Set([0, value.length - 1].filter((n) => n >= 0))) walk(value[i], [...path, String(i)]);
      else if (value !== null && typeof value === 'object')
        for (const [key, child] of Object.entries(value)) walk(child, [...path, key]);
    };
    walk(base, []);
    const changed = (path: string[], value: unknown, extraKey: boolean) => {
      const copy = structuredClone(base) as unknown as Record<string, unknown>;
      let parent: Record<string, unknown> = { root: copy };
      let key = 'root';
      for (const segment of path) {
        parent = parent[key] as Record<string, unknown>;
        key = segment;
      }
      if (extraKey && typeof parent[key] === 'object' && parent[key] !== null && !Array.isArray(parent[key]))
        (parent[key] as Record<string, unknown>).unexpected = value;
      else parent[key] = value;
      return copy;
    };
    const agree = (candidate: unknown) =>
      expect(MinecraftSnapshotSchema.safeParse(candidate).success).toBe(connectorSnapshot.safeParse(candidate).success);
    // Every bound either side writes, on every field, exhaustively; then random values.
    const bounds = [
      null,
      true,
      false,
      [],
      {},
      '',
      'x'.repeat(64),
      'x'.repeat(65),
      -1,
      0,
      0.5,
      1,
      2,
      3,
      15.99,
      16,
      16.01,
    ].concat([
      19.5, 20, 20.5, 21, 45, 46, 47, 63, 64, 65, 124, 125, 126, 127, 128, 255, 256, 1024, 1025, 23_999, 24_000,
    ]);
    for (const path of paths)
      for (const v of bounds) for (const extraKey of [false, true]) agree(changed(path, v, extraKey));
    const value = fc.oneof(
      fc.integer({ min: -30_000, max: 30_000 }),
      fc.double({ noNaN: false }),
      fc.string({ maxLength: 70 }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...paths), value, fc.boolean(), (path, v, extraKey) => {
        const candidate = changed(path, v, extraKey);
        expect(MinecraftSnapshotSchema.safeParse(candidate).success).toBe(
          connectorSnapshot.safeParse(candidate).success,
        );
      }),
      { numRuns: 2_000 },
    );
  });
});
