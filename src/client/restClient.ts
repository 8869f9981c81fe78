import { randomUUID } from 'node:crypto';
import type { EvidenceBundle } from '../api/evidenceView.js';
import type { RunView } from '../api/runView.js';

/** A failed API call, carrying the `helix.agent_api.error.v1` code when the server sent one. */
export class HelixApiError extends Error {
  override readonly name = 'HelixApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A small REST client for the Agent API. Every mutation gets a fresh Idempotency-Key, and a
 * transient failure (network error, 503) is retried with the SAME key, so a retry can never run a
 * turn twice.
 */
export class HelixRestClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  start(body: Record<string, unknown>): Promise<RunView> {
    return this.mutate('/api/v1/agent-runs', body);
  }

  continue(runId: string, body: Record<string, unknown>): Promise<RunView> {
    return this.mutate(`/api/v1/agent-runs/${encodeURIComponent(runId)}/continue`, body);
  }

  cancel(runId: string, body: Record<string, unknown>): Promise<RunView> {
    return this.mutate(`/api/v1/agent-runs/${encodeURIComponent(runId)}/cancel`, body);
  }

  inspect(runId: string): Promise<RunView> {
    return this.request('GET', `/api/v1/agent-runs/${encodeURIComponent(runId)}`);
  }

  evidence(runId: string): Promise<EvidenceBundle> {
    return this.request('GET', `/api/v1/agent-runs/${encodeURIComponent(runId)}/evidence`);
  }

  private async mutate<T>(path: string, body: Record<string, unknown>): Promise<T> {
    const key = `helix-cli-${randomUUID()}`;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.request<T>('POST', path, body, key);
      } catch (err) {
        const transient = !(err instanceof HelixApiError) || err.status === 503;
        if (!transient || attempt >= 3) throw err;
        await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
      }
    }
  }

  private async request<T>(method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const parsed = text === '' ? undefined : (JSON.parse(text) as { code?: string; message?: string });
    if (!response.ok)
      throw new HelixApiError(
        response.status,
        parsed?.code ?? 'http_error',
        parsed?.message ?? `HTTP ${response.status}`,
      );
    return parsed as T;
  }
}
