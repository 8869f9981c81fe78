import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { CodexAuthError } from './codexAuthError.js';
import { parseCredentialDocument, serializeCredentialDocument, type CredentialDocument } from './credentialDocument.js';

/** What a mutation decided: `next` is written (as the current version) when given; `result` is returned. */
export interface Mutation<T> {
  readonly next?: CredentialDocument;
  readonly result: T;
}

/**
 * Where one owner's Codex credential document lives. The local CLI uses the filesystem adapter;
 * a hosted product injects its own owner/tenant key and an encrypted secret backend
 * (docs/spec/codex-subscription-protocol.md, "Product boundary").
 */
export interface CredentialDocumentStore {
  /** The document, or undefined when there is none. Throws `document_unreadable`. Never writes. */
  read(ownerKey: string): Promise<CredentialDocument | undefined>;
  /**
   * Runs `fn` on the current document under a lock that excludes every other mutation of this
   * owner's document, in this process or another, and writes `next` atomically before returning.
   * An unreadable document is passed as undefined (only a new login writes from nothing). If `fn`
   * throws, nothing is written.
   */
  mutate<T>(ownerKey: string, fn: (current: CredentialDocument | undefined) => Promise<Mutation<T>>): Promise<T>;
  /** Removes the document; true when one existed. */
  delete(ownerKey: string): Promise<boolean>;
}

/** Owner keys become file names, so they are restricted to a safe alphabet. */
const OWNER_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export const checkOwnerKey = (ownerKey: string): string => {
  if (!OWNER_KEY.test(ownerKey) || ownerKey.includes('..')) {
    throw new CodexAuthError('invalid_owner', 'an owner key is 1-128 letters, digits, dots, dashes or underscores');
  }
  return ownerKey;
};

/** `$HELIX_HOME` or `~/.helix`. */
export const helixHomeFromEnv = (env: Readonly<Record<string, string | undefined>>): string => {
  const configured = env.HELIX_HOME?.trim();
  return configured === undefined || configured === '' ? join(homedir(), '.helix') : configured;
};

export interface FileStoreOptions {
  /** The Helix home directory; documents live in `<home>/codex/<owner>.json`. */
  readonly home: string;
  /**
   * A lock older than this is taken to belong to a crashed process. It must exceed the longest
   * time a mutation holds the lock (one token request, 30 s timeout).
   */
  readonly staleLockMs?: number;
  /** How long to wait for another holder before failing with `lock_timeout`. */
  readonly lockWaitMs?: number;
}

const isErrno = (err: unknown, code: string): boolean => (err as NodeJS.ErrnoException | undefined)?.code === code;

/** The local filesystem adapter: directory 0700, files 0600, temp-file + fsync + rename writes. */
export class FileCredentialDocumentStore implements CredentialDocumentStore {
  private readonly dir: string;
  private readonly staleLockMs: number;
  private readonly lockWaitMs: number;

  constructor(options: FileStoreOptions) {
    this.dir = join(options.home, 'codex');
    this.staleLockMs = options.staleLockMs ?? 60_000;
    this.lockWaitMs = options.lockWaitMs ?? 90_000;
  }

  /** The document's path, for diagnostics that name where a login is kept. */
  pathOf(ownerKey: string): string {
    return join(this.dir, `${checkOwnerKey(ownerKey)}.json`);
  }

  async read(ownerKey: string): Promise<CredentialDocument | undefined> {
    const text = await this.readText(this.pathOf(ownerKey));
    return text === undefined ? undefined : parseCredentialDocument(text);
  }

  async mutate<T>(ownerKey: string, fn: (current: CredentialDocument | undefined) => Promise<Mutation<T>>): Promise<T> {
    const path = this.pathOf(ownerKey);
    await this.ensureDir();
    const release = await this.lock(`${path}.lock`);
    try {
      const text = await this.readText(path);
      let current: CredentialDocument | undefined;
      try {
        current = text === undefined ? undefined : parseCredentialDocument(text);
      } catch {
        current = undefined;
      }
      const { next, result } = await fn(current);
      if (next !== undefined) await this.writeAtomically(path, serializeCredentialDocument(next));
      return result;
    } finally {
      await release();
    }
  }

  async delete(ownerKey: string): Promise<boolean> {
    const path = this.pathOf(ownerKey);
    await this.ensureDir();
    const release = await this.lock(`${path}.lock`);
    try {
      await unlink(path);
      return true;
    } catch (err) {
      if (isErrno(err, 'ENOENT')) return false;
      throw err;
    } finally {
      await release();
    }
  }

  private async readText(path: string): Promise<string | undefined> {
    try {
      return await readFile(path, 'utf8');
    } catch (err) {
      if (isErrno(err, 'ENOENT')) return undefined;
      throw err;
    }
  }

  private async ensureDir(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    // mkdir's mode is filtered by the umask and ignored for an existing directory.
    await chmod(this.dir, 0o700);
  }

  private async writeAtomically(path: string, text: string): Promise<void> {
    const temp = join(this.dir, `.${randomBytes(8).toString('hex')}.tmp`);
    const file = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    try {
      await file.writeFile(text, 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
    try {
      await rename(temp, path);
    } catch (err) {
      await unlink(temp).catch(() => undefined);
      throw err;
    }
    // The rename is durable only once the directory entry is; best effort where dirs cannot be fsynced.
    const dir = await open(this.dir, constants.O_RDONLY).catch(() => undefined);
    if (dir !== undefined)
      await dir
        .sync()
        .catch(() => undefined)
        .finally(() => dir.close());
  }

  /**
   * O_EXCL lock file. A lock whose mtime is older than `staleLockMs` is removed: its holder
   * crashed. (Two waiters can both judge one lock stale; the window is one stat-to-unlink and the
   * staleness limit is far above any real holding time.)
   */
  private async lock(lockPath: string): Promise<() => Promise<void>> {
    const deadline = Date.now() + this.lockWaitMs;
    for (;;) {
      try {
        const handle = await open(lockPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
        await handle.writeFile(`${process.pid}\n`).finally(() => handle.close());
        return () => unlink(lockPath).catch(() => undefined);
      } catch (err) {
        if (!isErrno(err, 'EEXIST')) throw err;
      }
      const held = await stat(lockPath).catch(() => undefined);
      if (held !== undefined && Date.now() - held.mtimeMs > this.staleLockMs) {
        await unlink(lockPath).catch(() => undefined);
        continue;
      }
      if (Date.now() > deadline)
        throw new CodexAuthError('lock_timeout', 'another process holds the Codex credential lock; try again');
      await delay(15 + Math.floor(Math.random() * 20));
    }
  }
}
