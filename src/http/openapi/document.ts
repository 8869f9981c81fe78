import type { z } from 'zod';
import { OPERATION_SCOPES, requiredScopesOf } from '../../domain/scopes.js';
import { SESSION_COOKIE } from '../../accounts/sessions.js';
import { BINDING_REF } from '../../service/accounts/bindingViews.js';
import { IDENTIFIER_PATTERN } from '../../auth/apiKeys.js';
import { MODEL_PROVIDER_ID } from '../../providers/providerSchemas.js';
import { HELIX_VERSION } from '../../version.js';
import { jsonSchemaOf, type JsonObject } from '../../api/jsonSchema.js';
import { ErrorBodySchema } from '../../api/outputSchemas.js';
import { RoomErrorBodySchema } from '../../api/roomOutputSchemas.js';
import { ROOM_ID_PATTERN, RUN_CHAT_BINDING_REF_PATTERN, RUN_ROOM_BINDING_REF_PATTERN } from '../../domain/rooms.js';
import { SOURCE_ID_PATTERN } from '../../domain/roomSources.js';
import { IdempotencyKeySchema, RunIdSchema } from '../../api/schemas.js';
import {
  ERROR_STATUSES,
  errorResponseName,
  errorResponseOf,
  errorStatusesOf,
  type ErrorBodyKind,
} from './errorResponses.js';
import { OPERATION_TAGS, SCHEMA_NAMES, type OperationDoc } from './operations.js';
import { SchemaComponents } from './schemaComponents.js';
import { documentedRoutes, type DocumentedRoute } from './routeCatalog.js';

const ref = (kind: 'headers' | 'parameters' | 'responses' | 'schemas' | 'securitySchemes', name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});

/** The path parameters of the contract, with the same patterns the services enforce. */
const PATH_PARAMETERS: Readonly<Record<string, JsonObject>> = {
  run_id: jsonSchemaOf(RunIdSchema, 'input'),
  provider_id: { type: 'string', pattern: MODEL_PROVIDER_ID.source },
  account_id: { type: 'string', pattern: IDENTIFIER_PATTERN.source },
  binding_ref: { type: 'string', pattern: BINDING_REF.source },
  room_id: { type: 'string', pattern: ROOM_ID_PATTERN.source },
  // A room source's id: the `{bindingId}` of the §22 [ref] source-manager and ingress routes.
  binding_id: { type: 'string', pattern: SOURCE_ID_PATTERN.source },
};

/** A parameter name that means something else under one path: the room facade's opaque binding refs. */
const pathParameterOf = (url: string, name: string): JsonObject | undefined => {
  if (name === 'binding_ref' && url.includes('/rooms/run-bindings/'))
    return { type: 'string', pattern: RUN_ROOM_BINDING_REF_PATTERN.source };
  if (name === 'binding_ref' && url.includes('/rooms/chat-bindings/'))
    return { type: 'string', pattern: RUN_CHAT_BINDING_REF_PATTERN.source };
  return PATH_PARAMETERS[name];
};

const HEADERS: Readonly<Record<string, JsonObject>> = {
  XRequestId: {
    description:
      "The request id: the caller's `X-Request-Id` if well-formed, else generated. Quote it when reporting a problem.",
    schema: { type: 'string' },
  },
  ETag: { description: 'Weak ETag of the run version (`W/"<version>"`).', schema: { type: 'string' } },
  IdempotencyReplayed: {
    description: '`true` when this answer replays the first request made with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true', 'false'] },
  },
  Location: { description: 'The URL of the created resource.', schema: { type: 'string' } },
  RetryAfter: { description: 'Seconds to wait before retrying (429, some 503).', schema: { type: 'string' } },
  WWWAuthenticate: {
    description: 'RFC 6750 challenge naming the resource metadata (and the scope lacking, on 403 insufficient_scope).',
    schema: { type: 'string' },
  },
};

const toOpenApiPath = (url: string): string => url.replace(/:([a-z_]+)/g, '{$1}');
const pathParameterNames = (url: string): string[] => [...url.matchAll(/:([a-z_]+)/g)].map((m) => m[1] ?? '');

type ObjectSchema = { properties?: Record<string, JsonObject>; required?: string[] };

/**
 * A query schema's properties become one `in: query` parameter each. Each is published as the value
 * it parses to (an integer with its bounds and default: how any client serialises a query
 * integer), and is required only if the input side requires it (a default makes it optional).
 */
const queryParameters = (doc: OperationDoc): JsonObject[] => {
  if (doc.query === undefined) return [];
  const parsed = jsonSchemaOf(doc.query, 'output') as ObjectSchema;
  const accepted = jsonSchemaOf(doc.query, 'input') as ObjectSchema;
  return Object.entries(parsed.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: accepted.required?.includes(name) ?? false,
    schema,
  }));
};

const parametersOf = (route: DocumentedRoute): JsonObject[] => [
  ...pathParameterNames(route.url).map((name) => {
    const schema = pathParameterOf(route.url, name);
    if (schema === undefined) throw new Error(`OpenAPI: no schema for path parameter ${name}`);
    return { name, in: 'path', required: true, schema };
  }),
  ...queryParameters(route.doc),
  ...(route.doc.idempotent === true ? [ref('parameters', 'IdempotencyKey')] : []),
  ...(route.doc.success?.stream === true ? [ref('parameters', 'LastEventId')] : []),
];

/** A bearer operation's scopes: the OAuth scope, else (operator-only) its one ADR-0004 scope. */
const securityOf = (doc: OperationDoc): JsonObject[] => {
  if (doc.authentication === 'none') return [];
  if (doc.authentication === 'session') return [{ session: [] }];
  if (doc.authentication === 'source_bearer') return [{ source_bearer: [] }];
  if (doc.authentication === 'action_credential') return [{ action_credential: [] }];
  if (doc.scope === undefined) throw new Error(`OpenAPI: bearer operation ${doc.operationId} names no scope`);
  return [{ bearer: [...requiredScopesOf(doc.scope)] }];
};

type Success = NonNullable<OperationDoc['success']>;

const successResponse = (doc: OperationDoc, success: Success, components: SchemaComponents): JsonObject => {
  const headers: JsonObject = {
    'X-Request-Id': ref('headers', 'XRequestId'),
    ...(success.etag === true ? { ETag: ref('headers', 'ETag') } : {}),
    ...(doc.idempotent === true ? { 'Idempotency-Replayed': ref('headers', 'IdempotencyReplayed') } : {}),
    ...(success.location === true ? { Location: ref('headers', 'Location') } : {}),
  };
  const content =
    success.stream === true
      ? { 'text/event-stream': { schema: { type: 'string' } } }
      : success.schema === undefined
        ? undefined
        : { 'application/json': { schema: named(components, success.schema, 'output') } };
  return { description: success.description, headers, ...(content === undefined ? {} : { content }) };
};

const operationOf = (route: DocumentedRoute, components: SchemaComponents): JsonObject => {
  const { doc } = route;
  const parameters = parametersOf(route);
  const grant = doc.scope === undefined ? undefined : OPERATION_SCOPES[doc.scope];
  return {
    operationId: doc.operationId,
    summary: doc.summary,
    tags: [doc.tag],
    security: securityOf(doc),
    ...(grant === undefined ? {} : { 'x-helix-operation': doc.scope, 'x-helix-adr-scopes': grant.adr }),
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(doc.body === undefined
      ? {}
      : {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: named(components, doc.body, 'input') } },
          },
        }),
    responses: {
      ...(doc.success === undefined
        ? {}
        : { [String(doc.success.status)]: successResponse(doc, doc.success, components) }),
      ...Object.fromEntries(
        errorStatusesOf(doc).map((status) => [
          String(status),
          ref('responses', errorResponseName(status, errorBodyOf(doc))),
        ]),
      ),
    },
  };
};

/** The room facade answers its errors as `helix.shared_live_room.error.v1` (src/api/errorBody.ts). */
const errorBodyOf = (doc: OperationDoc): ErrorBodyKind => (doc.tag === 'rooms' ? 'RoomErrorBody' : 'ErrorBody');

const named = (components: SchemaComponents, schema: z.ZodType, io: 'input' | 'output'): JsonObject => {
  const name = SCHEMA_NAMES.get(schema);
  if (name === undefined) throw new Error('OpenAPI: a request or response schema has no component name (SCHEMA_NAMES)');
  return components.ref(name, schema, io);
};

const pathsOf = (routes: readonly DocumentedRoute[], components: SchemaComponents): JsonObject => {
  const paths: Record<string, JsonObject> = {};
  for (const route of routes) {
    const path = toOpenApiPath(route.url);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operationOf(route, components) };
  }
  return paths;
};

/**
 * The OpenAPI 3.1 document of the REST surface, generated from the zod contract and the route
 * tables. Deterministic (no clock, no host): `docs/openapi.json` is this, byte for byte.
 */
export const buildOpenApiDocument = (): JsonObject => {
  const components = new SchemaComponents();
  components.ref('ErrorBody', ErrorBodySchema, 'output');
  components.ref('RoomErrorBody', RoomErrorBodySchema, 'output');
  const routes = documentedRoutes();
  const paths = pathsOf(routes, components);
  const roomErrorStatuses = new Set(routes.filter((r) => r.doc.tag === 'rooms').flatMap((r) => errorStatusesOf(r.doc)));
  const errorHeaders = {
    'X-Request-Id': ref('headers', 'XRequestId'),
    'Retry-After': ref('headers', 'RetryAfter'),
    'WWW-Authenticate': ref('headers', 'WWWAuthenticate'),
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Helix Agent API',
      version: HELIX_VERSION,
      description:
        'Durable, governed agent runs. Every response carries `X-Request-Id` and `Cache-Control: no-store`. Errors are `helix.agent_api.error.v1` bodies (`helix.shared_live_room.error.v1` on the room facade); see docs/api.md.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    tags: OPERATION_TAGS.map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An OAuth access token for this resource (RFC 9728 metadata at /.well-known/oauth-protected-resource) or an `hlx_` API key. Each operation lists the OAuth scope it requires (operator-only subject operations: their ADR-0004 scope); `x-helix-adr-scopes` lists the ADR-0004 key scopes that also admit it.',
        },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: 'The browser session of the Helix account pages (same origin only).',
        },
        source_bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A room source bearer (`hlxsrc_…`, shown once when the credential delivery is claimed): admitted only by the source ingress lane of its own binding, never by any other endpoint (docs/rooms.md#source-ingress).',
        },
        action_credential: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A room source action credential (`hlxact_…`, shown once beside the source bearer for an adapter with an action lane): admitted only by the action lane of its own binding, never by the ingress lane or any other endpoint (docs/embodiment.md#the-action-credential).',
        },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          description: 'Retries with the same key and request replay the first answer.',
          schema: jsonSchemaOf(IdempotencyKeySchema, 'input'),
        },
        LastEventId: {
          name: 'Last-Event-ID',
          in: 'header',
          required: false,
          description: 'Resume after this event seq (what an EventSource sends on reconnect).',
          schema: { type: 'string' },
        },
      },
      headers: HEADERS,
      schemas: components.toJSON(),
      responses: Object.fromEntries([
        ...ERROR_STATUSES.map((status) => [errorResponseName(status), errorResponseOf(status, errorHeaders)]),
        ...[...roomErrorStatuses]
          .sort((a, b) => a - b)
          .map((status) => [
            errorResponseName(status, 'RoomErrorBody'),
            errorResponseOf(status, errorHeaders, 'RoomErrorBody'),
          ]),
      ]),
    },
  };
};
