import pg from 'pg';
import { LocalRunNotifier, RUN_SIGNALS, type RunNotifier, type RunSignal } from '../service/runNotifier.js';

const CHANNEL = 'helix_runs';

/**
 * Cross-replica run signals over PostgreSQL LISTEN/NOTIFY: every replica LISTENs on one channel
 * with its own connection; a publish is a NOTIFY that every replica (this one included) receives
 * and re-emits locally. If the listening connection drops it reconnects; meanwhile waiters fall
 * back to their timeouts and re-read the store.
 */
export class PostgresRunNotifier implements RunNotifier {
  private readonly local = new LocalRunNotifier();
  private client: pg.Client | undefined;
  private closed = false;

  private constructor(private readonly connectionString: string, private readonly pool: pg.Pool) {}

  static async start(connectionString: string): Promise<PostgresRunNotifier> {
    const notifier = new PostgresRunNotifier(connectionString, new pg.Pool({ connectionString, max: 2 }));
    await notifier.listen();
    return notifier;
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (message) => {
      const [runId, signal] = (message.payload ?? '').split('\n');
      if (runId !== undefined && (RUN_SIGNALS as readonly string[]).includes(signal ?? '')) this.local.publish(runId, signal as RunSignal);
    });
    client.on('error', () => {
      if (this.closed) return;
      this.client = undefined;
      setTimeout(() => void this.listen().catch(() => undefined), 1000).unref();
    });
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.client = client;
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
