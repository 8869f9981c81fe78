import type { Principal } from './principal.js';

export interface CredentialCacheOptions {
  /** How long a verified credential is trusted without a store read; 0 turns the cache off. */
  readonly ttlMs: number;
  /** At most this many credentials are held; the oldest entry goes first. */
  readonly maxEntries: number;
  readonly now: () => number;
}

interface Entry {
  readonly principal: Principal;
  readonly expiresAt: number;
}

/**
 * Verified `hlx_` keys, by the key's hash (never the key), so a request does not read its key and
 * account rows again. Revocation still takes effect: `clear()` runs on every committed credential
 * change (this process's, through Store.onCredentialsChanged; other processes', through
 * PostgreSQL's `helix_credentials` channel, or on SQLite through any other connection's commit,
 * which `noteWritesElsewhere` sees), and every entry expires after `ttlMs` whatever happens, which
 * bounds a change the listening connection missed while it was down. A verification that began
 * before a clear is never stored after it.
 */
export class CredentialCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  private writesElsewhere: number | undefined;

  constructor(private readonly options: CredentialCacheOptions) {}

  get enabled(): boolean {
    return this.options.ttlMs > 0;
  }

  /** The generation a verification starts in; hand it to `set`. */
  begin(): number {
    return this.generation;
  }

  get(keyHash: string): Principal | undefined {
    const entry = this.entries.get(keyHash);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > this.options.now()) return entry.principal;
    this.entries.delete(keyHash);
    return undefined;
  }

  /** Stores what a verification begun in `generation` found, unless the credentials changed since. */
  set(keyHash: string, principal: Principal, generation: number): void {
    if (!this.enabled || generation !== this.generation) return;
    this.entries.delete(keyHash);
    if (this.entries.size >= this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(keyHash, { principal, expiresAt: this.options.now() + this.options.ttlMs });
  }

  /**
   * The store's mark of other processes' writes (Store.writesElsewhere): when it moved, something
   * another process committed may have been a revocation, so every entry goes.
   */
  noteWritesElsewhere(mark: number): void {
    if (this.writesElsewhere !== undefined && mark !== this.writesElsewhere) this.clear();
    this.writesElsewhere = mark;
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
