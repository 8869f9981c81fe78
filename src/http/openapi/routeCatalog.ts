import { BINDING_ROUTES } from '../account/bindingRoutes.js';
import { OBSERVER_ROUTES } from '../account/observerRoutes.js';
import { ROOM_SOURCE_BROWSER_ROUTES } from '../account/roomSourceRoutes.js';
import { HEALTH_PATH } from '../health.js';
import { EVENT_STREAM_PATH } from '../rest/eventStreamRoute.js';
import { PROVIDER_ROUTES } from '../rest/providerRoutes.js';
import { ROOM_ROUTES } from '../rest/roomRoutes.js';
import { RUN_ROUTES } from '../rest/runRoutes.js';
import { SUBJECT_ROUTES } from '../rest/subjectRoutes.js';
import { DEVICE_CHECK_METADATA_PATH, PROTECTED_RESOURCE_PATHS } from '../wellKnown.js';
import {
  discoveryDoc,
  HEALTH_DOC,
  OPENAPI_DOC,
  OPENAPI_PATH,
  OPERATION_DOCS,
  type OperationDoc,
} from './operations.js';
import { ROOM_OPERATION_DOCS } from './roomOperations.js';
import { OBSERVER_BROWSER_OPERATION_DOCS } from './observerBrowserOperations.js';
import { ROOM_SOURCE_BROWSER_OPERATION_DOCS } from './roomSourceBrowserOperations.js';
import { ACTION_LANE_OPERATION_DOCS, INGRESS_OPERATION_DOCS } from './ingressOperations.js';
import { INGRESS_ROUTES } from '../ingress/ingressRoutes.js';
import { ACTION_LANE_ROUTES } from '../ingress/actionRoutes.js';

export interface DocumentedRoute {
  readonly method: string;
  /** Fastify syntax (`/api/v1/agent-runs/:run_id`), as registered. */
  readonly url: string;
  readonly doc: OperationDoc;
}

const documented = (method: string, url: string): DocumentedRoute => {
  const key = `${method} ${url}`;
  const doc =
    OPERATION_DOCS[key] ??
    ROOM_OPERATION_DOCS[key] ??
    ROOM_SOURCE_BROWSER_OPERATION_DOCS[key] ??
    OBSERVER_BROWSER_OPERATION_DOCS[key] ??
    INGRESS_OPERATION_DOCS[key] ??
    ACTION_LANE_OPERATION_DOCS[key];
  // A route added to a table without its contract entry must not ship undocumented.
  if (doc === undefined)
    throw new Error(`OpenAPI: no operation entry for ${method} ${url} (src/http/openapi/operations.ts)`);
  return { method, url, doc };
};

/**
 * Every JSON/SSE route the app serves, read from the route tables that register them, so the
 * document cannot name a path the server lacks or miss one it has. Not here: `/mcp` (JSON-RPC,
 * described by its tools/list) and the HTML account pages.
 */
export const documentedRoutes = (): readonly DocumentedRoute[] => [
  ...RUN_ROUTES.map((r) => documented(r.method, r.url)),
  documented('GET', EVENT_STREAM_PATH),
  ...PROVIDER_ROUTES.map((r) => documented(r.method, r.url)),
  ...SUBJECT_ROUTES.map((r) => documented(r.method, r.url)),
  ...ROOM_ROUTES.map((r) => documented(r.method, r.url)),
  ...INGRESS_ROUTES.map((r) => documented(r.method, r.url)),
  ...ACTION_LANE_ROUTES.map((r) => documented(r.method, r.url)),
  ...BINDING_ROUTES.map((r) => documented(r.method, r.url)),
  ...ROOM_SOURCE_BROWSER_ROUTES.map((r) => documented(r.method, r.url)),
  ...OBSERVER_ROUTES.map((r) => documented(r.method, r.url)),
  ...[...PROTECTED_RESOURCE_PATHS, DEVICE_CHECK_METADATA_PATH].map((url) => ({
    method: 'GET',
    url,
    doc: discoveryDoc(url),
  })),
  { method: 'GET', url: HEALTH_PATH, doc: HEALTH_DOC },
  { method: 'GET', url: OPENAPI_PATH, doc: OPENAPI_DOC },
];
