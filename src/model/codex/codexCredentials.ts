import { ModelError } from '../port.js';
import { CodexAuthError } from './codexAuthError.js';
import {
  documentAfterRefresh,
  documentAfterTerminalRefresh,
  documentFromLogin,
  type CredentialDocument,
} from './credentialDocument.js';
import type { CredentialDocumentStore } from './credentialStore.js';
import type { CodexAccess, CodexCredentialSource } from './credentials.js';
import type { CodexEndpoints } from './endpoints.js';
import {
  accountIdFromTokens,
  jwtExpiry,
  refreshCodexTokens,
  type CodexTokens,
  type TerminalRefreshReason,
} from './tokenClient.js';

/** Refresh this long before `exp`, so a token does not expire between the check and the request. */
export const REFRESH_SKEW_MS = 60_000;
/** A shared refresh is bounded on its own: no single caller's abort may cancel it for the others. */
const SHARED_REFRESH_TIMEOUT_MS = 45_000;

const RECONNECT_HINT = 'run `helix login codex`';

export interface CodexCredentialsOptions {
  readonly store: CredentialDocumentStore;
  readonly ownerKey: string;
  readonly endpoints: CodexEndpoints;
  readonly now?: () => number;
}

/** One refresh in flight per store and owner within this process; concurrent callers share it. */
const inFlight = new WeakMap<CredentialDocumentStore, Map<string, Promise<CodexAccess>>>();

const accessOf = (doc: CredentialDocument): CodexAccess => ({ accessToken: doc.accessToken, accountId: doc.accountId });

const notLoggedIn = (): ModelError =>
  new ModelError('auth', `no Codex subscription login here; ${RECONNECT_HINT}`, { retryable: false });

const reconnectRequired = (reason: TerminalRefreshReason): ModelError =>
  new ModelError('auth', `the Codex subscription login must be renewed (${reason}); ${RECONNECT_HINT}`, {
    retryable: false,
    providerCode: reason,
  });

/** Maps a login/refresh/store failure to the model boundary's one error type. */
const toModelError = (err: unknown): Error => {
  if (err instanceof ModelError) return err;
  if (!(err instanceof CodexAuthError)) return err as Error;
  switch (err.code) {
    case 'document_unreadable':
      return new ModelError('auth', `${err.message}; ${RECONNECT_HINT}`, { retryable: false });
    case 'refresh_failed':
    case 'transport':
    case 'lock_timeout':
      return new ModelError('auth', `could not refresh the Codex subscription login: ${err.message}`, {
        retryable: true,
        ...(err.details.httpStatus === undefined ? {} : { httpStatus: err.details.httpStatus }),
      });
    case 'aborted':
      return new ModelError('aborted', err.message, { retryable: false });
    default:
      return new ModelError('auth', `could not refresh the Codex subscription login: ${err.message}`, {
        retryable: false,
        ...(err.details.httpStatus === undefined ? {} : { httpStatus: err.details.httpStatus }),
      });
  }
};

/** Rejects as soon as `signal` aborts, without cancelling the shared work behind `promise`. */
const abortable = <T>(promise: Promise<T>, signal: AbortSignal): Promise<T> => {
  if (signal.aborted)
    return Promise.reject(
      new ModelError('aborted', 'aborted while waiting for Codex credentials', { retryable: false }),
    );
  return new Promise<T>((resolve, reject) => {
    const onAbort = () =>
      reject(new ModelError('aborted', 'aborted while waiting for Codex credentials', { retryable: false }));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
};

/** The Codex subscription credentials of one owner, refreshed on demand. */
export class CodexCredentials implements CodexCredentialSource {
  private readonly store: CredentialDocumentStore;
  private readonly ownerKey: string;
  private readonly endpoints: CodexEndpoints;
  private readonly now: () => number;

  constructor(options: CodexCredentialsOptions) {
    this.store = options.store;
    this.ownerKey = options.ownerKey;
    this.endpoints = options.endpoints;
    this.now = options.now ?? Date.now;
  }

  async access(signal: AbortSignal): Promise<CodexAccess> {
    const doc = await this.readUsable();
    if (!this.isStale(doc)) return accessOf(doc);
    return abortable(
      this.refreshShared((current) => this.isStale(current)),
      signal,
    );
  }

  async afterUnauthorized(rejected: CodexAccess, signal: AbortSignal): Promise<CodexAccess> {
    // Another process may already have refreshed: its token is worth one try before refreshing here.
    const doc = await this.readUsable();
    if (doc.accessToken !== rejected.accessToken) return accessOf(doc);
    const stillRejected = (current: CredentialDocument) => current.accessToken === rejected.accessToken;
    const shared = await abortable(this.refreshShared(stillRejected), signal);
    // A flight joined from access() may have judged the rejected token fresh; then refresh for real, once.
    return shared.accessToken === rejected.accessToken ? abortable(this.refreshLocked(stillRejected), signal) : shared;
  }

  private async readUsable(): Promise<CredentialDocument> {
    let doc: CredentialDocument | undefined;
    try {
      doc = await this.store.read(this.ownerKey);
    } catch (err) {
      throw toModelError(err);
    }
    if (doc === undefined) throw notLoggedIn();
    if (doc.health.state === 'reconnect-required') throw reconnectRequired(doc.health.reason);
    return doc;
  }

  private isStale(doc: CredentialDocument): boolean {
    const expiry = jwtExpiry(doc.accessToken) ?? doc.expiresAt;
    // No expiry known at all: use the token until the backend rejects it (then afterUnauthorized refreshes).
    return expiry !== undefined && expiry - REFRESH_SKEW_MS <= this.now();
  }

  private refreshShared(needsRefresh: (current: CredentialDocument) => boolean): Promise<CodexAccess> {
    let perStore = inFlight.get(this.store);
    if (perStore === undefined) {
      perStore = new Map();
      inFlight.set(this.store, perStore);
    }
    const existing = perStore.get(this.ownerKey);
    if (existing !== undefined) return existing;
    const shared = this.refreshLocked(needsRefresh).finally(() => perStore.delete(this.ownerKey));
    perStore.set(this.ownerKey, shared);
    return shared;
  }

  /**
   * Under the store's cross-process lock: re-check (another process may have refreshed while this
   * one waited), refresh, and persist the outcome before answering. A terminal failure is written
   * as `reconnect-required` first, so every process sees it; a transient one writes nothing.
   */
  private async refreshLocked(needsRefresh: (current: CredentialDocument) => boolean): Promise<CodexAccess> {
    type Outcome = { ok: true; access: CodexAccess } | { ok: false; error: ModelError };
    const outcome = await this.store
      .mutate<Outcome>(this.ownerKey, async (current) => {
        if (current === undefined) return { result: { ok: false, error: notLoggedIn() } };
        if (current.health.state === 'reconnect-required')
          return { result: { ok: false, error: reconnectRequired(current.health.reason) } };
        if (!needsRefresh(current)) return { result: { ok: true, access: accessOf(current) } };
        try {
          const refreshed = await refreshCodexTokens(
            this.endpoints,
            current.refreshToken,
            AbortSignal.timeout(SHARED_REFRESH_TIMEOUT_MS),
            this.now,
          );
          const accountId = accountIdFromTokens(refreshed.idToken, refreshed.accessToken) ?? current.accountId;
          const next = documentAfterRefresh(current, refreshed, accountId, this.now());
          return { next, result: { ok: true, access: accessOf(next) } };
        } catch (err) {
          if (err instanceof CodexAuthError && err.code === 'refresh_rejected') {
            const reason = (err.details.providerCode ?? 'unauthorized') as TerminalRefreshReason;
            return {
              next: documentAfterTerminalRefresh(current, reason, this.now()),
              result: { ok: false, error: reconnectRequired(reason) },
            };
          }
          throw err;
        }
      })
      .catch((err: unknown) => {
        throw toModelError(err);
      });
    if (!outcome.ok) throw outcome.error;
    return outcome.access;
  }
}

/** Persists a completed login for `ownerKey`, replacing whatever was there and clearing terminal health. */
export const saveCodexLogin = (
  store: CredentialDocumentStore,
  ownerKey: string,
  tokens: CodexTokens,
  now: number = Date.now(),
): Promise<void> => store.mutate(ownerKey, async () => ({ next: documentFromLogin(tokens, now), result: undefined }));

export const CODEX_AUTH_STATES = ['logged-out', 'logged-in', 'reconnect-required'] as const;
export type CodexAuthState = (typeof CODEX_AUTH_STATES)[number];

/** Structured status: never token material, account ids, expiry or raw responses. */
export interface CodexAuthStatus {
  readonly provider: 'codex-subscription';
  readonly state: CodexAuthState;
  readonly reason?: TerminalRefreshReason | 'document_unreadable';
  /** The stored document's version, null when there is none (or it is unreadable). */
  readonly document_version: number | null;
}

/** Reads (never writes: a v1 document stays v1) and reports the owner's login state. */
export const codexAuthStatus = async (store: CredentialDocumentStore, ownerKey: string): Promise<CodexAuthStatus> => {
  let doc: CredentialDocument | undefined;
  try {
    doc = await store.read(ownerKey);
  } catch (err) {
    if (err instanceof CodexAuthError && err.code === 'document_unreadable') {
      return {
        provider: 'codex-subscription',
        state: 'reconnect-required',
        reason: 'document_unreadable',
        document_version: null,
      };
    }
    throw err;
  }
  if (doc === undefined) return { provider: 'codex-subscription', state: 'logged-out', document_version: null };
  if (doc.health.state === 'reconnect-required') {
    return {
      provider: 'codex-subscription',
      state: 'reconnect-required',
      reason: doc.health.reason,
      document_version: doc.version,
    };
  }
  return { provider: 'codex-subscription', state: 'logged-in', document_version: doc.version };
};
