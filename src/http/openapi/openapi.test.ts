import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../domain/errors.js';
import { MCP_ONLY_OPERATIONS, OPERATION_SCOPES, requiredScopesOf, type Operation } from '../../domain/scopes.js';
import { BINDING_ROUTES } from '../account/bindingRoutes.js';
import { OBSERVER_ROUTES } from '../account/observerRoutes.js';
import { ROOM_SOURCE_BROWSER_ROUTES } from '../account/roomSourceRoutes.js';
import { EVENT_STREAM_PATH } from '../rest/eventStreamRoute.js';
import { PROVIDER_ROUTES } from '../rest/providerRoutes.js';
import { ROOM_ROUTES } from '../rest/roomRoutes.js';
import { ACTION_LANE_ROUTES } from '../ingress/actionRoutes.js';
import { INGRESS_ROUTES } from '../ingress/ingressRoutes.js';
import { RUN_ROUTES } from '../rest/runRoutes.js';
import { SUBJECT_ROUTES } from '../rest/subjectRoutes.js';
import { DEVICE_CHECK_METADATA_PATH, PROTECTED_RESOURCE_PATHS } from '../wellKnown.js';
import { HELIX_VERSION } from '../../version.js';
import { EVENTS_LIMIT } from '../../api/schemas.js';
import { buildOpenApiDocument } from './document.js';
import { OPENAPI_FILE, renderOpenApiDocument } from './render.js';

type Doc = {
  info: { version: string };
  paths: Record<string, Record<string, Op>>;
  components: {
    responses: Record<
      string,
      {
        content: { 'application/json': { schema: { allOf: [unknown, { properties: { code: { enum: string[] } } }] } } };
      }
    >;
  };
};
type Op = {
  security: Record<string, string[]>[];
  parameters?: ({ $ref: string } | { name: string; in: string })[];
  requestBody?: unknown;
  responses: Record<string, { $ref?: string; headers?: Record<string, unknown> }>;
  'x-helix-operation'?: Operation;
};

const doc = buildOpenApiDocument() as unknown as Doc;
const openApiPath = (url: string) => url.replace(/:([a-z_]+)/g, '{$1}');
const operation = (method: string, url: string): Op | undefined => doc.paths[openApiPath(url)]?.[method.toLowerCase()];

const TABLE_ROUTES: { method: string; url: string }[] = [
  ...RUN_ROUTES,
  { method: 'GET', url: EVENT_STREAM_PATH },
  ...PROVIDER_ROUTES,
  ...SUBJECT_ROUTES,
  ...ROOM_ROUTES,
  ...INGRESS_ROUTES,
  ...ACTION_LANE_ROUTES,
  ...BINDING_ROUTES,
  ...ROOM_SOURCE_BROWSER_ROUTES,
  ...OBSERVER_ROUTES,
  ...[...PROTECTED_RESOURCE_PATHS, DEVICE_CHECK_METADATA_PATH].map((url) => ({ method: 'GET', url })),
  { method: 'GET', url: '/healthz' },
  { method: 'GET', url: '/openapi.json' },
];

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document (@readme/openapi-parser)', async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.specification).toBe('OpenAPI');
  });

  it('is the committed docs/openapi.json (run `npm run openapi` after changing the contract)', () => {
    const committed = readFileSync(fileURLToPath(new URL(`../../../${OPENAPI_FILE}`, import.meta.url)), 'utf8');
    expect(
      committed === renderOpenApiDocument(),
      `${OPENAPI_FILE} is stale: run \`npm run openapi\` and commit the result`,
    ).toBe(true);
  });

  it('has every route of the route tables, and nothing else', () => {
    for (const route of TABLE_ROUTES)
      expect(operation(route.method, route.url), `${route.method} ${route.url}`).toBeDefined();
    const documented = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(documented).toBe(TABLE_ROUTES.length);
    expect(doc.info.version).toBe(HELIX_VERSION);
  });

  it('names the scope OPERATION_SCOPES requires on each bearer operation', () => {
    const scoped = Object.values(doc.paths)
      .flatMap((item) => Object.values(item))
      .filter((op) => op['x-helix-operation'] !== undefined);
    // The embodiment's operations are MCP tools only (MC-01..MC-05): no REST route.
    const restOperations = Object.keys(OPERATION_SCOPES).filter(
      (o) => !(MCP_ONLY_OPERATIONS as readonly string[]).includes(o),
    );
    expect(new Set(scoped.map((op) => op['x-helix-operation']))).toEqual(new Set(restOperations));
    for (const op of scoped) {
      expect(op.security).toEqual([{ bearer: [...requiredScopesOf(op['x-helix-operation'] as Operation)] }]);
    }
    expect(operation('GET', '/healthz')?.security).toEqual([]);
    expect(operation('GET', '/api/account/session/agent-bindings')?.security).toEqual([{ session: [] }]);
    // ING-01, SRC-07: the ingress lane admits its binding's source bearer and nothing else.
    for (const route of INGRESS_ROUTES)
      expect(operation(route.method, route.url)?.security, route.url).toEqual([{ source_bearer: [] }]);
    // M-02: the action lane admits its binding's action credential and nothing else.
    for (const route of ACTION_LANE_ROUTES)
      expect(operation(route.method, route.url)?.security, route.url).toEqual([{ action_credential: [] }]);
  });

  it('requires an Idempotency-Key and answers Idempotency-Replayed on the idempotent mutations', () => {
    const mutations = [
      ...RUN_ROUTES.filter((r) => r.mutation),
      ...SUBJECT_ROUTES.filter((r) => r.method === 'POST'),
      { method: 'POST', url: '/api/v1/rooms' },
    ];
    expect(mutations).toHaveLength(5);
    for (const route of mutations) {
      const op = operation(route.method, route.url);
      expect(op?.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
      const success = Object.entries(op?.responses ?? {}).find(([status]) => status.startsWith('2'))?.[1];
      expect(Object.keys(success?.headers ?? {})).toContain('Idempotency-Replayed');
      expect(op?.responses['422']?.$ref).toMatch(/^#\/components\/responses\/(Room)?Error422$/);
    }
    expect(operation('GET', '/api/v1/agent-runs/:run_id')?.parameters).not.toContainEqual({
      $ref: '#/components/parameters/IdempotencyKey',
    });
  });

  it('publishes the run headers: ETag on snapshots, Location on start, X-Request-Id everywhere', () => {
    const start = operation('POST', '/api/v1/agent-runs')?.responses['201']?.headers ?? {};
    expect(Object.keys(start).sort()).toEqual(['ETag', 'Idempotency-Replayed', 'Location', 'X-Request-Id']);
    expect(Object.keys(operation('GET', '/api/v1/agent-runs/:run_id')?.responses['200']?.headers ?? {})).toContain(
      'ETag',
    );
    expect(
      Object.keys(operation('GET', '/api/v1/agent-runs/:run_id/events')?.responses['200']?.headers ?? {}),
    ).not.toContain('ETag');
  });

  it('publishes the events query as bounded integers with their defaults, all optional', () => {
    const params = operation('GET', '/api/v1/agent-runs/:run_id/events')?.parameters ?? [];
    expect(params).toContainEqual({
      name: 'limit',
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: EVENTS_LIMIT.min, maximum: EVENTS_LIMIT.max, default: EVENTS_LIMIT.default },
    });
    expect(params).toContainEqual(expect.objectContaining({ name: 'run_id', in: 'path', required: true }));
    expect(operation('GET', EVENT_STREAM_PATH)?.parameters).toContainEqual({
      $ref: '#/components/parameters/LastEventId',
    });
  });

  it('lists every error code under the status ERROR_TABLE gives it', () => {
    const listed = Object.entries(doc.components.responses)
      .filter(([name]) => name.startsWith('Error'))
      .flatMap(([name, response]) =>
        response.content['application/json'].schema.allOf[1].properties.code.enum.map((code) => `${code}:${name}`),
      );
    expect(listed).toHaveLength(ERROR_CODES.length);
    expect(listed).toContain('idempotency_conflict:Error422');
    expect(listed).toContain('insufficient_scope:Error403');
    expect(listed).toContain('provider_secrets_unavailable:Error503');
  });
});

describe('the room facade in the OpenAPI document (issue 14)', () => {
  const roomOps = ROOM_ROUTES.map((route) => ({ route, op: operation(route.method, route.url) }));

  it('RREST-01..10, DC-02: every room route, with its scope set and the room error bodies', () => {
    expect(roomOps).toHaveLength(12);
    for (const { route, op } of roomOps) {
      expect(op, `${route.method} ${route.url}`).toBeDefined();
      const errors = Object.entries(op?.responses ?? {}).filter(([status]) => !status.startsWith('2'));
      for (const [status, response] of errors)
        expect(response.$ref, `${route.url} ${status}`).toBe(`#/components/responses/RoomError${status}`);
    }
    expect(operation('POST', '/api/v1/rooms/run-bindings')?.security).toEqual([
      { bearer: ['helix.rooms.manage', 'helix.agent_runs.write'] },
    ]);
    expect(operation('DELETE', '/api/v1/rooms/chat-bindings/:binding_ref')?.security).toEqual([
      { bearer: ['helix.rooms.manage', 'helix.agent_runs.write'] },
    ]);
    expect(operation('GET', '/api/v1/rooms')?.security).toEqual([{ bearer: ['helix.rooms.read'] }]);
    // RREST-08, RREST-09, D-01: the source routes need helix.room_sources.manage alone.
    for (const method of ['GET', 'POST'])
      expect(operation(method, '/api/v1/rooms/:room_id/sources')?.security).toEqual([
        { bearer: ['helix.room_sources.manage'] },
      ]);
    // DC-01, DC-02: the Device Check needs helix.rooms.read alone.
    for (const path of ['/api/v1/rooms/device-check', '/api/v1/rooms/:room_id/device-check'])
      expect(operation('GET', path)?.security).toEqual([{ bearer: ['helix.rooms.read'] }]);
  });

  it('RREST-10: the command operation has no success response, only errors, 501 among them', () => {
    const responses = Object.keys(operation('POST', '/api/v1/rooms/:room_id/commands')?.responses ?? {});
    expect(responses.some((status) => status.startsWith('2'))).toBe(false);
    expect(responses).toContain('501');
  });

  it('WD-01: a withdrawal takes no body; the binding refs are published with their own patterns', () => {
    const unbind = operation('DELETE', '/api/v1/rooms/run-bindings/:binding_ref');
    expect(unbind?.requestBody).toBeUndefined();
    expect(unbind?.parameters).toContainEqual({
      name: 'binding_ref',
      in: 'path',
      required: true,
      schema: { type: 'string', pattern: '^rrb_[0-9a-f]{32}$' },
    });
  });
});
