import {
  SourceClaimReceiptSchema,
  SourceCreateReceiptSchema,
  SourceListReceiptSchema,
  SourceRevokeReceiptSchema,
  SourceRotateReceiptSchema,
} from '../../api/roomOutputSchemas.js';
import { ClaimDeliveryRequestSchema, CreateSourceRequestSchema } from '../../api/roomSourceSchemas.js';
import { SOURCE_BINDINGS_PATH, SOURCE_CLAIM_PATH } from '../account/roomSourceRoutes.js';
import type { OperationDoc } from './operations.js';

const BINDING = `${SOURCE_BINDINGS_PATH}/:binding_id`;
const revocation = (operationId: string, summary: string): OperationDoc => ({
  operationId,
  summary,
  tag: 'account',
  authentication: 'session',
  success: { status: 200, description: '`revoked`, then `already_revoked`.', schema: SourceRevokeReceiptSchema },
});

/**
 * The console's source manager and credential claim (src/http/account/roomSourceRoutes.ts,
 * docs/rooms.md "The source manager and the claim page"), keyed like OPERATION_DOCS: same-origin,
 * cookie-authenticated, `helix.agent_api.error.v1` errors.
 */
export const ROOM_SOURCE_BROWSER_OPERATION_DOCS: Readonly<Record<string, OperationDoc>> = {
  [`GET ${SOURCE_BINDINGS_PATH}`]: {
    operationId: 'listRoomSourceBindings',
    summary: 'List a room’s sources as its signed-in owner, without credentials (browser session)',
    tag: 'account',
    authentication: 'session',
    success: { status: 200, description: 'The room’s source projections.', schema: SourceListReceiptSchema },
  },
  [`POST ${SOURCE_BINDINGS_PATH}`]: {
    operationId: 'createRoomSourceBinding',
    summary: 'Create a room source and its show-once credential delivery as the owner (browser session)',
    tag: 'account',
    authentication: 'session',
    body: CreateSourceRequestSchema,
    success: {
      status: 201,
      description: 'The source and its credential delivery; no bearer exists until the delivery is claimed.',
      schema: SourceCreateReceiptSchema,
    },
  },
  [`POST ${BINDING}/rotate`]: {
    operationId: 'rotateRoomSourceBinding',
    summary: 'Rotate a source’s credential: the bearer stops at once, a new delivery is answered (browser session)',
    tag: 'account',
    authentication: 'session',
    success: { status: 200, description: 'The source and its next delivery.', schema: SourceRotateReceiptSchema },
  },
  [`POST ${BINDING}/revoke`]: revocation('revokeRoomSourceBinding', 'Revoke a room source for good (browser session)'),
  [`DELETE ${BINDING}`]: revocation('deleteRoomSourceBinding', 'Revoke a room source, as `/revoke` (browser session)'),
  [`POST ${SOURCE_CLAIM_PATH}`]: {
    operationId: 'claimRoomSourceCredentialDelivery',
    summary: 'Claim a source credential delivery once as the developer room owner (browser session)',
    tag: 'account',
    authentication: 'session',
    body: ClaimDeliveryRequestSchema,
    success: {
      status: 200,
      description: 'The source bearer and connector configuration, shown once; only the bearer’s hash is kept.',
      schema: SourceClaimReceiptSchema,
    },
  },
};
