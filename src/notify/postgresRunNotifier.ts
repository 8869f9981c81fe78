import pg from 'pg';
import { CREDENTIALS_CHANNEL } from '../store/credentialChanges.js';
import { createResilientPool } from '../store/dialects/postgres.js';
import { LocalRunNotifier, RUN_SIGNALS, type RunNotifier, type RunSignal } from '../service/runs/runNotifier.js';

const CHANNEL = 'helix_runs';
const RELISTEN_FIRST_DELAY_MS = 500;
const RELISTEN_MAX_DELAY_MS = 10_000;

/**
 * Cross-replica signals over PostgreSQL LISTEN/NOTIFY, on one listening connection per replica.
 * Run signals: a publish is a NOTIFY that every replica (this one included) receives and re-emits
 * locally. Credential changes: the store NOTIFYs `helix_credentials` with the committing
 * transaction (src/store/credentialChanges.ts), and `onCredentialsChanged` runs on each. If the
 * listening connection drops it reconnects; meanwhile run waiters fall back to their timeouts and
 * re-read the store, and once it is back `onCredentialsChanged` runs too, for what it may have missed.
 */
export class PostgresRunNotifier implements RunNotifier {
  private readonly local = new LocalRunNotifier();
  private client: pg.Client | undefined;
  private closed = false;

  private constructor(
    private readonly connectionString: string,
    private readonly pool: pg.Pool,
    private readonly onConnectionError: (err: Error) => void,
    private readonly onCredentialsChanged: () => void,
  ) {}

  static async start(
    connectionString: string,
    onConnectionError: (err: Error) => void = () => undefined,
    onCredentialsChanged: () => void = () => undefined,
  ): Promise<PostgresRunNotifier> {
    const notifier = new PostgresRunNotifier(
      connectionString,
      createResilientPool({ connectionString, max: 2 }, onConnectionError),
      onConnectionError,
      onCredentialsChanged,
    );
    await notifier.listen();
    return notifier;
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (message) => {
      if (message.channel === CREDENTIALS_CHANNEL) return this.onCredentialsChanged();
      const [runId, signal] = (message.payload ?? '').split('\n');
      if (runId !== undefined && (RUN_SIGNALS as readonly string[]).includes(signal ?? ''))
        this.local.publish(runId, signal as RunSignal);
    });
    client.on('error', (err) => {
      if (this.closed || this.client !== client) return;
      this.onConnectionError(err);
      this.client = undefined;
      void client.end().catch(() => undefined);
      this.relisten(RELISTEN_FIRST_DELAY_MS);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}; LISTEN ${CREDENTIALS_CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    if (this.closed) await client.end().catch(() => undefined);
    else {
      this.client = client;
      // A change committed while no connection listened was never heard: assume there was one.
      this.onCredentialsChanged();
    }
  }

  /** Keeps trying (with capped backoff) until LISTEN works again: a server restart may take a while. */
  private relisten(delayMs: number): void {
    setTimeout(() => {
      if (this.closed) return;
      this.listen().catch((err: unknown) => {
        this.onConnectionError(err as Error);
        this.relisten(Math.min(delayMs * 2, RELISTEN_MAX_DELAY_MS));
      });
    }, delayMs).unref();
  }

  publish(runId: string, signal: RunSignal): void {
    void this.pool.query('SELECT pg_notify($1, $2)', [CHANNEL, `${runId}\n${signal}`]).catch(() => undefined);
  }

  subscribe(runId: string, listener: (signal: RunSignal) => void): () => void {
    return this.local.subscribe(runId, listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.local.close();
    await this.client?.end().catch(() => undefined);
    await this.pool.end().catch(() => undefined);
  }
}
