import { z } from 'zod';
import { CodexAuthError } from './codexAuthError.js';
import {
  TERMINAL_REFRESH_REASONS,
  type CodexTokens,
  type RefreshedTokens,
  type TerminalRefreshReason,
} from './tokenClient.js';

/**
 * The persisted Codex credential document: tokens, account id and bounded terminal refresh health
 * in one versioned record, written in one transaction (docs/spec/codex-subscription-protocol.md).
 *
 * Version 1 (the first release) held tokens, account id and `saved_at`. Version 2 adds `health`.
 * A v1 document reads as healthy, is never rewritten by a read, and becomes v2 on the next write.
 */
export const CURRENT_DOCUMENT_VERSION = 2;

const token = z.string().min(1).max(16_384);
const isoTime = z.iso.datetime({ offset: true });

const v1Schema = z.object({
  version: z.literal(1),
  tokens: z.object({ id_token: token, access_token: token, refresh_token: token }),
  account_id: z.string().min(1).max(256),
  saved_at: isoTime,
});

const healthSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('ok'), since: isoTime }),
  z.object({ state: z.literal('reconnect-required'), reason: z.enum(TERMINAL_REFRESH_REASONS), since: isoTime }),
]);

const v2Schema = z.object({
  version: z.literal(2),
  tokens: z.object({ id_token: token, access_token: token, refresh_token: token, expires_at: isoTime.optional() }),
  account_id: z.string().min(1).max(256),
  saved_at: isoTime,
  health: healthSchema,
});

const documentSchema = z.discriminatedUnion('version', [v1Schema, v2Schema]);
export type CredentialDocumentJson = z.infer<typeof v2Schema>;

export type CredentialHealth =
  | { readonly state: 'ok'; readonly since: number }
  | { readonly state: 'reconnect-required'; readonly reason: TerminalRefreshReason; readonly since: number };

/** The document as the code uses it, whatever version it was read from. */
export interface CredentialDocument {
  /** The version it was read as; every write produces `CURRENT_DOCUMENT_VERSION`. */
  readonly version: 1 | 2;
  readonly idToken: string;
  readonly accessToken: string;
  readonly refreshToken: string;
  /** Epoch ms from the token response's `expires_in`; v1 did not keep it. */
  readonly expiresAt?: number;
  readonly accountId: string;
  readonly savedAt: number;
  readonly health: CredentialHealth;
}

/** Parses stored JSON text; anything that is not a known version is `document_unreadable` (no content echoed). */
export const parseCredentialDocument = (text: string): CredentialDocument => {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new CodexAuthError('document_unreadable', 'the stored Codex credential document is not JSON');
  }
  const parsed = documentSchema.safeParse(raw);
  if (!parsed.success)
    throw new CodexAuthError('document_unreadable', 'the stored Codex credential document matches no known version');
  const doc = parsed.data;
  const base = {
    version: doc.version,
    idToken: doc.tokens.id_token,
    accessToken: doc.tokens.access_token,
    refreshToken: doc.tokens.refresh_token,
    accountId: doc.account_id,
    savedAt: Date.parse(doc.saved_at),
  };
  if (doc.version === 1) return { ...base, health: { state: 'ok', since: base.savedAt } };
  const health: CredentialHealth =
    doc.health.state === 'ok'
      ? { state: 'ok', since: Date.parse(doc.health.since) }
      : { state: 'reconnect-required', reason: doc.health.reason, since: Date.parse(doc.health.since) };
  return {
    ...base,
    ...(doc.tokens.expires_at === undefined ? {} : { expiresAt: Date.parse(doc.tokens.expires_at) }),
    health,
  };
};

const iso = (ms: number): string => new Date(ms).toISOString();

/** Always the current version: writing is what migrates a v1 document. */
export const serializeCredentialDocument = (doc: CredentialDocument): string => {
  const json: CredentialDocumentJson = {
    version: 2,
    tokens: {
      id_token: doc.idToken,
      access_token: doc.accessToken,
      refresh_token: doc.refreshToken,
      ...(doc.expiresAt === undefined ? {} : { expires_at: iso(doc.expiresAt) }),
    },
    account_id: doc.accountId,
    saved_at: iso(doc.savedAt),
    health:
      doc.health.state === 'ok'
        ? { state: 'ok', since: iso(doc.health.since) }
        : { state: 'reconnect-required', reason: doc.health.reason, since: iso(doc.health.since) },
  };
  return `${JSON.stringify(json, null, 2)}\n`;
};

/** A successful login: new tokens, healthy. */
export const documentFromLogin = (tokens: CodexTokens, now: number): CredentialDocument => ({
  version: CURRENT_DOCUMENT_VERSION,
  idToken: tokens.idToken,
  accessToken: tokens.accessToken,
  refreshToken: tokens.refreshToken,
  expiresAt: tokens.expiresAt,
  accountId: tokens.accountId,
  savedAt: now,
  health: { state: 'ok', since: now },
});

/** A successful refresh keeps whatever the response omitted and clears terminal health. */
export const documentAfterRefresh = (
  doc: CredentialDocument,
  refreshed: RefreshedTokens,
  accountId: string,
  now: number,
): CredentialDocument => {
  const { expiresAt: _previousExpiry, ...rest } = doc;
  const expiresAt = refreshed.accessToken === undefined ? doc.expiresAt : refreshed.expiresAt;
  return {
    ...rest,
    version: CURRENT_DOCUMENT_VERSION,
    idToken: refreshed.idToken ?? doc.idToken,
    accessToken: refreshed.accessToken ?? doc.accessToken,
    refreshToken: refreshed.refreshToken ?? doc.refreshToken,
    ...(expiresAt === undefined ? {} : { expiresAt }),
    accountId,
    savedAt: now,
    health: doc.health.state === 'ok' ? doc.health : { state: 'ok', since: now },
  };
};

/** A terminal refresh failure: tokens kept (for the record), health says a new login is needed. */
export const documentAfterTerminalRefresh = (
  doc: CredentialDocument,
  reason: TerminalRefreshReason,
  now: number,
): CredentialDocument => ({
  ...doc,
  version: CURRENT_DOCUMENT_VERSION,
  savedAt: now,
  health: { state: 'reconnect-required', reason, since: now },
});
