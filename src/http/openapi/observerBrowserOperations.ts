import { ObserverBindingRequestSchema, ObserverEventsQuerySchema } from '../../api/chatSchemas.js';
import {
  IssuedObserverBindingSchema,
  ObserverBindingViewSchema,
  ObserverDisconnectReceiptSchema,
  ObserverEventPageSchema,
} from '../../api/observerOutputSchemas.js';
import { OBSERVER_BINDINGS_PATH } from '../account/observerRoutes.js';
import type { OperationDoc } from './operations.js';

const BINDING = `${OBSERVER_BINDINGS_PATH}/:binding_ref`;

/**
 * The browser observer lane (src/http/account/observerRoutes.ts, docs/console.md "The observer
 * routes"), keyed like OPERATION_DOCS: same-origin, cookie-authenticated, like the source manager's
 * browser routes.
 */
export const OBSERVER_BROWSER_OPERATION_DOCS: Readonly<Record<string, OperationDoc>> = {
  [`POST ${OBSERVER_BINDINGS_PATH}`]: {
    operationId: 'issueObserverBinding',
    summary:
      'Issue a show-once chat claim handle for one of your chats, with an optional bounded snapshot (browser session)',
    tag: 'account',
    authentication: 'session',
    body: ObserverBindingRequestSchema,
    success: {
      status: 201,
      description: 'The pending binding and its claim handle, shown once; only the handle’s SHA-256 is kept.',
      schema: IssuedObserverBindingSchema,
    },
  },
  [`GET ${BINDING}`]: {
    operationId: 'inspectObserverBinding',
    summary: 'Inspect your observer binding: status, expiry, snapshot counts (browser session)',
    tag: 'account',
    authentication: 'session',
    success: { status: 200, description: 'The binding, never its run or handle.', schema: ObserverBindingViewSchema },
  },
  [`DELETE ${BINDING}`]: {
    operationId: 'disconnectObserverBinding',
    summary: 'Disconnect your observer binding and the run-chat binding its claim made (browser session)',
    tag: 'account',
    authentication: 'session',
    success: {
      status: 200,
      description: '`revoked`, then `already_revoked`; works after the policy lock (WD-06).',
      schema: ObserverDisconnectReceiptSchema,
    },
  },
  [`GET ${BINDING}/events`]: {
    operationId: 'listObserverEvents',
    summary:
      'Poll the bound run’s progress after a sequence number; appends the one verified answer to the chat (browser session)',
    tag: 'account',
    authentication: 'session',
    query: ObserverEventsQuerySchema,
    success: {
      status: 200,
      description: 'Progress events (redacted, never an answer) and the chat’s terminal message once it exists.',
      schema: ObserverEventPageSchema,
    },
  },
};
