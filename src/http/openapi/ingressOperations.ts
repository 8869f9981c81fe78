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
import type { OperationDoc } from './operations.js';

const BASE = '/api/room-ingress/v1/bindings/:binding_id';

/** Every ingress POST can meet a replayed request id or a missing admission (409) and a profile refusal (422). */
const post = (
  doc: Omit<OperationDoc, 'tag' | 'authentication' | 'errors'>,
  extraErrors: readonly number[] = [],
): OperationDoc => ({
  ...doc,
  tag: 'room-ingress',
  authentication: 'source_bearer',
  errors: [409, 422, ...extraErrors],
});

/** The two routes that store observations also meet the room's storage quota (507 room_storage_quota_exceeded). */
const STORES_OBSERVATIONS = [507] as const;

/**
 * The source ingress lane's contract entries (src/http/ingress/ingressRoutes.ts,
 * docs/rooms.md#source-ingress), keyed like OPERATION_DOCS. A connector authenticates with its
 * source bearer only; errors are `helix.agent_api.error.v1` bodies.
 */
export const INGRESS_OPERATION_DOCS: Readonly<Record<string, OperationDoc>> = {
  [`POST ${BASE}/manifest`]: post({
    operationId: 'submitSourceManifest',
    summary: 'Register the producer manifest of a process start; admitted against the source’s adapter profile',
    body: ManifestRequestSchema,
    success: { status: 200, description: 'The adapter admission.', schema: AdmissionReceiptSchema },
  }),
  [`POST ${BASE}/heartbeat`]: post({
    operationId: 'recordSourceHeartbeat',
    summary: 'Report the producer’s connection to the game and its latest observation time',
    body: HeartbeatRequestSchema,
    success: { status: 200, description: 'Recorded.', schema: HeartbeatReceiptSchema },
  }),
  [`POST ${BASE}/world-events/batch`]: post(
    {
      operationId: 'recordSourceWorldEvents',
      summary: 'Submit 1-16 world events, each stored as an observation with exact provenance',
      body: WorldEventBatchRequestSchema,
      success: { status: 200, description: 'The stored observations.', schema: WorldEventBatchReceiptSchema },
    },
    STORES_OBSERVATIONS,
  ),
  [`POST ${BASE}/probes/pending`]: post({
    operationId: 'pollSourceProbes',
    summary: 'Take the open probes runs asked of this source, oldest first',
    body: ProbePollRequestSchema,
    success: { status: 200, description: 'The probes to answer.', schema: ProbePollReceiptSchema },
  }),
  [`POST ${BASE}/probes/result`]: post(
    {
      operationId: 'recordSourceProbeResult',
      summary: 'Answer one open probe of this source',
      body: ProbeResultRequestSchema,
      success: { status: 200, description: 'The stored probe result.', schema: ProbeResultReceiptSchema },
    },
    STORES_OBSERVATIONS,
  ),
  [`GET ${BASE}/status`]: {
    operationId: 'inspectSourceStatus',
    summary: 'The binding’s admission and connection state, without secrets',
    tag: 'room-ingress',
    authentication: 'source_bearer',
    success: { status: 200, description: 'The binding’s state.', schema: SourceStatusReceiptSchema },
  },
};

const ACTIONS = '/api/room-actions/v1/bindings/:binding_id';

/** The action lane's POSTs: the action credential only (M-02); 404 for an id Helix never issued to the binding. */
const actionPost = (doc: Omit<OperationDoc, 'tag' | 'authentication' | 'errors'>): OperationDoc => ({
  ...doc,
  tag: 'room-ingress',
  authentication: 'action_credential',
  errors: [404, 409, 422],
});

/** The action lane's contract entries (src/http/ingress/actionRoutes.ts, docs/embodiment.md#the-action-lane). */
export const ACTION_LANE_OPERATION_DOCS: Readonly<Record<string, OperationDoc>> = {
  [`POST ${ACTIONS}/actions/pending`]: actionPost({
    operationId: 'pollEnvironmentActions',
    summary: 'Take the controls, then the typed player actions, queued for this binding',
    body: ActionPollRequestSchema,
    success: { status: 200, description: 'Controls first, then actions.', schema: ActionPollReceiptSchema },
  }),
  [`POST ${ACTIONS}/actions/result`]: actionPost({
    operationId: 'recordEnvironmentActionResult',
    summary: 'Report one issued action’s outcome and observed postcondition',
    body: ActionResultRequestSchema,
    success: { status: 200, description: 'The outcome Helix recorded.', schema: ActionResultReceiptSchema },
  }),
  [`POST ${ACTIONS}/controls/result`]: actionPost({
    operationId: 'recordEnvironmentControlResult',
    summary: 'Report one issued cancel or emergency stop, with its stationary postcondition',
    body: ControlResultRequestSchema,
    success: { status: 200, description: 'The control outcome Helix recorded.', schema: ControlResultReceiptSchema },
  }),
};
