import { redactCredentials } from '../domain/credentialShape.js';
import type { ObserverBindingRecord, ObserverBindingStatus } from '../domain/chats.js';
import type { RunEvent } from '../domain/events.js';
import type { RevocationStatus } from '../domain/rooms.js';
import { NON_AUTHORITY_FLAGS } from './flags.js';

/** The observer lane's projections (OBS-06, OBS-11..OBS-14; docs/console.md). [impl] schema names. */
export const OBSERVER_SCHEMAS = {
  binding: 'helix.agent_run_observer.binding.v1',
  events: 'helix.agent_run_observer.event_page.v1',
  disconnect: 'helix.agent_run_observer.disconnect_receipt.v1',
} as const;

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/**
 * The browser's view of its own observer binding: status, expiry and the snapshot's counts. Never
 * the run id, the handle or its hash; the snapshot text stays in the store (OBS-09).
 */
export const observerBindingView = (binding: ObserverBindingRecord, status: ObserverBindingStatus) => ({
  schema: OBSERVER_SCHEMAS.binding,
  binding_ref: binding.bindingRef,
  binding_status: status,
  chat_session_id: binding.chatId,
  expires_at: iso(binding.expiresAt),
  claimed_at: iso(binding.claimedAt),
  revoked_at: iso(binding.revokedAt),
  snapshot_ref: binding.snapshotRef,
  snapshot_message_count: binding.snapshot.length,
  snapshot_char_count: binding.snapshotChars,
  ...NON_AUTHORITY_FLAGS,
});
export type ObserverBindingView = ReturnType<typeof observerBindingView>;

/** OBS-03: the issue answer adds the show-once handle; only its SHA-256 was stored. */
export const issuedObserverBinding = (binding: ObserverBindingRecord, claimHandle: string) => ({
  ...observerBindingView(binding, 'pending_claim'),
  claim_handle: claimHandle,
  claim_handle_shown_once: true as const,
});

/**
 * OBS-11, OBS-13, SLR-09: one progress event as the observer sees it. Its data is walked
 * recursively, keys included, and anything credential-shaped is redacted; it is never an answer.
 */
export const observerEvent = (event: RunEvent) => ({
  seq: event.seq,
  kind: event.kind,
  run_version: event.version,
  data: redactCredentials(event.data),
  created_at: iso(event.createdAt),
});

export interface TerminalProjection {
  /** The stable id of the chat's one assistant message (OBS-16), once it exists. */
  readonly message_id: string;
  /** True on the poll that wrote (or repaired) it. */
  readonly appended: boolean;
}

export const observerEventPage = (
  binding: ObserverBindingRecord,
  status: ObserverBindingStatus,
  events: readonly RunEvent[],
  afterSeq: number,
  hasMore: boolean,
  terminal: TerminalProjection | null,
) => ({
  schema: OBSERVER_SCHEMAS.events,
  binding_ref: binding.bindingRef,
  binding_status: status,
  events: events.map(observerEvent),
  next_after_seq: events.at(-1)?.seq ?? afterSeq,
  has_more: hasMore,
  terminal_message: terminal,
  ...NON_AUTHORITY_FLAGS,
});
export type ObserverEventPage = ReturnType<typeof observerEventPage>;

/** WD-04's shape for the browser's disconnect (OBS-12, WD-06). */
export const observerDisconnectReceipt = (bindingRef: string, status: RevocationStatus) => ({
  schema: OBSERVER_SCHEMAS.disconnect,
  binding_ref: bindingRef,
  binding_status: 'revoked' as const,
  revocation_status: status,
  ...NON_AUTHORITY_FLAGS,
});
