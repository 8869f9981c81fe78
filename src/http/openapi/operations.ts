import { DeviceCheckReceiptSchema } from '../../api/deviceCheckViews.js';
import { z } from 'zod';
import type { Operation } from '../../domain/scopes.js';
import {
  ModelProviderListViewSchema,
  ModelProviderViewSchema,
  RegisterModelProviderSchema,
} from '../../providers/providerSchemas.js';
import {
  SubjectErasureViewSchema,
  SubjectExportViewSchema,
  SubjectSummaryViewSchema,
} from '../../service/subjects/subjectViews.js';
import { BindingListViewSchema, BindingRevocationViewSchema } from '../../service/accounts/bindingViews.js';
import {
  BindRunRequestSchema,
  ClaimChatBindingRequestSchema,
  CreateRoomRequestSchema,
  RoomCommandRequestSchema,
} from '../../api/roomSchemas.js';
import {
  ChatClaimReceiptSchema,
  ChatUnbindReceiptSchema,
  RoomCreateReceiptSchema,
  RoomErrorBodySchema,
  RoomInspectReceiptSchema,
  RoomListReceiptSchema,
  RunBindReceiptSchema,
  RunUnbindReceiptSchema,
  SourceClaimReceiptSchema,
  SourceCreateReceiptSchema,
  SourceListReceiptSchema,
  SourceRevokeReceiptSchema,
  SourceRotateReceiptSchema,
} from '../../api/roomOutputSchemas.js';
import { ClaimDeliveryRequestSchema, CreateSourceRequestSchema } from '../../api/roomSourceSchemas.js';
import {
  AdmissionReceiptSchema,
  HeartbeatReceiptSchema,
  ProbePollReceiptSchema,
  ProbeResultReceiptSchema,
  SourceStatusReceiptSchema,
  WorldEventBatchReceiptSchema,
} from '../../api/roomIngressOutputSchemas.js';
import {
  HeartbeatRequestSchema,
  ManifestRequestSchema,
  ProbePollRequestSchema,
  ProbeResultRequestSchema,
  WorldEventBatchRequestSchema,
} from '../../api/roomIngressSchemas.js';
import {
  ActionPollReceiptSchema,
  ActionPollRequestSchema,
  ActionResultReceiptSchema,
  ActionResultRequestSchema,
  ControlResultReceiptSchema,
  ControlResultRequestSchema,
} from '../../api/environmentActionSchemas.js';
import { ObserverBindingRequestSchema } from '../../api/chatSchemas.js';
import {
  IssuedObserverBindingSchema,
  ObserverBindingViewSchema,
  ObserverDisconnectReceiptSchema,
  ObserverEventPageSchema,
} from '../../api/observerOutputSchemas.js';
import { ProtectedResourceMetadataSchema } from '../wellKnown.js';
import { HealthSchema } from '../health.js';
import { EventPageSchema, EvidenceBundleSchema, RunListViewSchema, RunViewSchema } from '../../api/outputSchemas.js';
import {
  CancelRunRequestSchema,
  ContinueRunRequestSchema,
  ListEventsQuerySchema,
  ListRunsQuerySchema,
  StartRunRequestSchema,
  StreamEventsQuerySchema,
} from '../../api/schemas.js';

/**
 * How a caller authenticates: a bearer token or `hlx_` key, the browser session cookie, a room
 * source's bearer (the ingress lane only), a source's action credential (the action lane only), or nothing.
 */
export type Authentication = 'bearer' | 'session' | 'source_bearer' | 'action_credential' | 'none';

export const OPERATION_TAGS = [
  'runs',
  'rooms',
  'room-ingress',
  'model-providers',
  'subjects',
  'account',
  'discovery',
  'health',
  'contract',
] as const;

const OpenApiDocumentSchema = z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) });

/**
 * What the route tables do not say about an endpoint: its purpose, its schemas and its headers.
 * Paths and methods come from the route tables themselves (./routeCatalog.ts); this is keyed by them.
 */
export interface OperationDoc {
  readonly operationId: string;
  readonly summary: string;
  readonly tag: (typeof OPERATION_TAGS)[number];
  readonly authentication: Authentication;
  /** The scope-checked operation (src/domain/scopes.ts OPERATION_SCOPES). */
  readonly scope?: Operation;
  /** Takes an `Idempotency-Key` and answers `Idempotency-Replayed`. */
  readonly idempotent?: true;
  readonly body?: z.ZodType;
  readonly query?: z.ZodType;
  /** Error statuses beyond the coarse ones every operation of its kind can answer (./errorResponses.ts). */
  readonly errors?: readonly number[];
  /** Absent for an operation that never succeeds (the disabled room command, RREST-10). */
  readonly success?: {
    readonly status: 200 | 201 | 204;
    readonly description: string;
    /** JSON body schema; absent with `stream` (Server-Sent Events) or a 204. */
    readonly schema?: z.ZodType;
    readonly stream?: true;
    readonly etag?: true;
    readonly location?: true;
  };
}

export const OPERATION_DOCS: Readonly<Record<string, OperationDoc>> = {
  'POST /api/v1/agent-runs': {
    operationId: 'startRun',
    summary: 'Start a governed agent run',
    tag: 'runs',
    authentication: 'bearer',
    scope: 'run.start',
    idempotent: true,
    body: StartRunRequestSchema,
    success: {
      status: 201,
      description: 'The run was created (or the creation replayed).',
      schema: RunViewSchema,
      etag: true,
      location: true,
    },
  },
  'GET /api/v1/agent-runs': {
    operationId: 'listRuns',
    summary: "List the caller's runs, newest first",
    tag: 'runs',
    authentication: 'bearer',
    scope: 'run.list',
    query: ListRunsQuerySchema,
    success: {
      status: 200,
      description:
        'A page of the runs this owner started, filtered by `status` (lifecycle) and `q` (objective text, ignoring ASCII case); pass `next_cursor` back as `cursor` for the next page (null on the last). A cursor is opaque and bound to its owner.',
      schema: RunListViewSchema,
    },
  },
  'GET /api/v1/agent-runs/:run_id': {
    operationId: 'inspectRun',
    summary: 'Inspect a run snapshot',
    tag: 'runs',
    authentication: 'bearer',
    scope: 'run.inspect',
    success: { status: 200, description: 'The run snapshot.', schema: RunViewSchema, etag: true },
  },
  'POST /api/v1/agent-runs/:run_id/continue': {
    operationId: 'continueRun',
    summary: 'Run one more turn, answering pending questions',
    tag: 'runs',
    authentication: 'bearer',
    scope: 'run.continue',
    idempotent: true,
    body: ContinueRunRequestSchema,
    success: { status: 200, description: 'The run snapshot after the turn.', schema: RunViewSchema, etag: true },
  },
  'POST /api/v1/agent-runs/:run_id/cancel': {
    operationId: 'cancelRun',
    summary: 'Cancel a run',
    tag: 'runs',
    authentication: 'bearer',
    scope: 'run.cancel',
    idempotent: true,
    body: CancelRunRequestSchema,
    success: { status: 200, description: 'The cancelled run snapshot.', schema: RunViewSchema, etag: true },
  },
  'GET /api/v1/agent-runs/:run_id/events': {
    operationId: 'listRunEvents',
    summary: 'Page through (or long-poll) the run events',
    tag: 'runs',
    authentication: 'bearer',
    scope: 'run.events',
    query: ListEventsQuerySchema,
    success: { status: 200, description: 'A page of events after `after_seq`.', schema: EventPageSchema },
  },
  'GET /api/v1/agent-runs/:run_id/evidence': {
    operationId: 'getRunEvidence',
    summary: 'The evidence bundle of a run',
    tag: 'runs',
    authentication: 'bearer',
    scope: 'run.evidence',
    success: { status: 200, description: 'The evidence bundle.', schema: EvidenceBundleSchema },
  },
  'GET /api/v1/agent-runs/:run_id/events/stream': {
    operationId: 'streamRunEvents',
    summary: 'Stream the run events as Server-Sent Events',
    tag: 'runs',
    authentication: 'bearer',
    scope: 'run.events_stream',
    query: StreamEventsQuerySchema,
    success: {
      status: 200,
      description:
        '`text/event-stream`: `id:` is the event seq, `event:` its kind, `data:` a `helix.agent_run.event.v1`; an `end` event closes the stream of a terminal run.',
      stream: true,
    },
  },
  'POST /api/v1/model-providers': {
    operationId: 'registerModelProvider',
    summary: "Register the caller's model provider",
    tag: 'model-providers',
    authentication: 'bearer',
    scope: 'model_provider.register',
    body: RegisterModelProviderSchema,
    success: {
      status: 201,
      description: 'The registration; the API key is never shown back.',
      schema: ModelProviderViewSchema,
      location: true,
    },
  },
  'GET /api/v1/model-providers': {
    operationId: 'listModelProviders',
    summary: "List the caller's model providers, newest (the one in use) first",
    tag: 'model-providers',
    authentication: 'bearer',
    scope: 'model_provider.list',
    success: { status: 200, description: 'The registrations.', schema: ModelProviderListViewSchema },
  },
  'GET /api/v1/model-providers/:provider_id': {
    operationId: 'inspectModelProvider',
    summary: 'Inspect a model provider registration',
    tag: 'model-providers',
    authentication: 'bearer',
    scope: 'model_provider.inspect',
    success: { status: 200, description: 'The registration.', schema: ModelProviderViewSchema },
  },
  'DELETE /api/v1/model-providers/:provider_id': {
    operationId: 'deleteModelProvider',
    summary: 'Delete a model provider registration and its sealed key',
    tag: 'model-providers',
    authentication: 'bearer',
    scope: 'model_provider.delete',
    success: { status: 204, description: 'Deleted.' },
  },
  'GET /api/v1/subjects/:account_id': {
    operationId: 'showSubject',
    summary: 'Count the records held for a data subject (operator only)',
    tag: 'subjects',
    authentication: 'bearer',
    scope: 'subject.read',
    success: { status: 200, description: 'Row counts per record kind.', schema: SubjectSummaryViewSchema },
  },
  'GET /api/v1/subjects/:account_id/export': {
    operationId: 'exportSubject',
    summary: 'Export every record of a data subject (operator only)',
    tag: 'subjects',
    authentication: 'bearer',
    scope: 'subject.export',
    success: { status: 200, description: 'Every row, allow-listed columns only.', schema: SubjectExportViewSchema },
  },
  'POST /api/v1/subjects/:account_id/erase': {
    operationId: 'eraseSubject',
    summary: 'Erase every record of a data subject (operator only)',
    tag: 'subjects',
    authentication: 'bearer',
    scope: 'subject.erase',
    idempotent: true,
    success: { status: 200, description: 'The erasure receipt.', schema: SubjectErasureViewSchema },
  },
  'GET /api/account/session/agent-bindings': {
    operationId: 'listAgentBindings',
    summary: "List the signed-in account's agent bindings (browser session)",
    tag: 'account',
    authentication: 'session',
    success: {
      status: 200,
      description: 'The bindings; never the subject, the tenant in clear or a credential.',
      schema: BindingListViewSchema,
    },
  },
  'DELETE /api/account/session/agent-bindings/:binding_ref': {
    operationId: 'revokeAgentBinding',
    summary: 'Revoke one agent binding (browser session)',
    tag: 'account',
    authentication: 'session',
    success: { status: 200, description: 'The revocation receipt.', schema: BindingRevocationViewSchema },
  },
};

/** The `components.schemas` name each request and response schema is published under. */
export const SCHEMA_NAMES: ReadonlyMap<z.ZodType, string> = new Map<z.ZodType, string>([
  [StartRunRequestSchema, 'StartRunRequest'],
  [ContinueRunRequestSchema, 'ContinueRunRequest'],
  [CancelRunRequestSchema, 'CancelRunRequest'],
  [RunViewSchema, 'RunView'],
  [EventPageSchema, 'EventPage'],
  [RunListViewSchema, 'RunListView'],
  [EvidenceBundleSchema, 'EvidenceBundle'],
  [RegisterModelProviderSchema, 'RegisterModelProviderRequest'],
  [ModelProviderViewSchema, 'ModelProviderView'],
  [ModelProviderListViewSchema, 'ModelProviderListView'],
  [SubjectSummaryViewSchema, 'SubjectSummaryView'],
  [SubjectExportViewSchema, 'SubjectExportView'],
  [SubjectErasureViewSchema, 'SubjectErasureView'],
  [BindingListViewSchema, 'AgentBindingListView'],
  [BindingRevocationViewSchema, 'AgentBindingRevocationView'],
  [CreateRoomRequestSchema, 'CreateRoomRequest'],
  [BindRunRequestSchema, 'BindRunRequest'],
  [ClaimChatBindingRequestSchema, 'ClaimChatBindingRequest'],
  [RoomCommandRequestSchema, 'RoomCommandRequest'],
  [RoomListReceiptSchema, 'RoomListReceipt'],
  [RoomCreateReceiptSchema, 'RoomCreateReceipt'],
  [RoomInspectReceiptSchema, 'RoomInspectReceipt'],
  [RunBindReceiptSchema, 'RunBindReceipt'],
  [RunUnbindReceiptSchema, 'RunUnbindReceipt'],
  [ChatClaimReceiptSchema, 'ChatBindingClaimReceipt'],
  [ChatUnbindReceiptSchema, 'ChatBindingUnbindReceipt'],
  [ClaimDeliveryRequestSchema, 'ClaimRoomSourceDeliveryRequest'],
  [SourceRotateReceiptSchema, 'RoomSourceRotateReceipt'],
  [SourceRevokeReceiptSchema, 'RoomSourceRevokeReceipt'],
  [SourceClaimReceiptSchema, 'RoomSourceClaimReceipt'],
  [CreateSourceRequestSchema, 'CreateRoomSourceRequest'],
  [SourceListReceiptSchema, 'RoomSourceListReceipt'],
  [SourceCreateReceiptSchema, 'RoomSourceCreateReceipt'],
  [DeviceCheckReceiptSchema, 'DeviceCheckReceipt'],
  [ObserverBindingRequestSchema, 'ObserverBindingRequest'],
  [IssuedObserverBindingSchema, 'IssuedObserverBinding'],
  [ObserverBindingViewSchema, 'ObserverBinding'],
  [ObserverEventPageSchema, 'ObserverEventPage'],
  [ObserverDisconnectReceiptSchema, 'ObserverDisconnectReceipt'],
  [RoomErrorBodySchema, 'RoomErrorBody'],
  [ManifestRequestSchema, 'SourceManifestRequest'],
  [HeartbeatRequestSchema, 'SourceHeartbeatRequest'],
  [WorldEventBatchRequestSchema, 'SourceWorldEventBatchRequest'],
  [ProbePollRequestSchema, 'SourceProbePollRequest'],
  [ProbeResultRequestSchema, 'SourceProbeResultRequest'],
  [AdmissionReceiptSchema, 'SourceAdmissionReceipt'],
  [HeartbeatReceiptSchema, 'SourceHeartbeatReceipt'],
  [WorldEventBatchReceiptSchema, 'SourceWorldEventBatchReceipt'],
  [ProbePollReceiptSchema, 'SourceProbePollReceipt'],
  [ProbeResultReceiptSchema, 'SourceProbeResultReceipt'],
  [SourceStatusReceiptSchema, 'SourceStatusReceipt'],
  [ActionPollRequestSchema, 'EnvironmentActionPollRequest'],
  [ActionResultRequestSchema, 'EnvironmentActionResultRequest'],
  [ControlResultRequestSchema, 'EnvironmentControlResultRequest'],
  [ActionPollReceiptSchema, 'EnvironmentActionPollReceipt'],
  [ActionResultReceiptSchema, 'EnvironmentActionResultReceipt'],
  [ControlResultReceiptSchema, 'EnvironmentControlResultReceipt'],
  [ProtectedResourceMetadataSchema, 'ProtectedResourceMetadata'],
  [HealthSchema, 'Health'],
  [OpenApiDocumentSchema, 'OpenApiDocument'],
]);

/** Every RFC 9728 metadata path serves the same document shape. */
export const discoveryDoc = (path: string): OperationDoc => ({
  operationId: `protectedResourceMetadata${path.replace('/.well-known/oauth-protected-resource', '').replace(/(^|[/_-])([a-z])/g, (_m, _s, c: string) => c.toUpperCase())}`,
  summary: 'RFC 9728 protected-resource metadata',
  tag: 'discovery',
  authentication: 'none',
  success: {
    status: 200,
    description: 'The canonical resource, its authorization servers and scopes.',
    schema: ProtectedResourceMetadataSchema,
  },
});

export const HEALTH_DOC: OperationDoc = {
  operationId: 'health',
  summary: 'Liveness',
  tag: 'health',
  authentication: 'none',
  success: { status: 200, description: 'The process answers.', schema: HealthSchema },
};

export const OPENAPI_PATH = '/openapi.json';

export const OPENAPI_DOC: OperationDoc = {
  operationId: 'openApiDocument',
  summary: 'The OpenAPI 3.1 document of the REST API',
  tag: 'contract',
  authentication: 'none',
  success: { status: 200, description: 'The contract, generated from the zod schemas.', schema: OpenApiDocumentSchema },
};
