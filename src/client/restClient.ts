import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { ErrorBodySchema, EventPageSchema, EvidenceBundleSchema, RunViewSchema } from '../api/outputSchemas.js';
import { HelixApiError, HelixContractError } from './clientErrors.js';
import type {
  CancelRunBody,
  ContinueRunBody,
  ListEventsParams,
  RunEventPage,
  RunEvidence,
  RunSnapshot,
  StartRunBody,
} from './contract.js';

const RUNS = '/api/v1/agent-runs';
const runPath = (runId: string, tail = '') => `${RUNS}/${encodeURIComponent(runId)}${tail}`;

/** A mutation's Idempotency-Key: fresh by default; pass one to retry a request made earlier. */
export interface MutationOptions {
  readonly idempotencyKey?: string;
}

const issuesOf = (error: z.ZodError): string[] =>
  error.issues.slice(0, 10).map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`);

const parseJson = (status: number, text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    throw new HelixContractError(status, ['the body is not JSON']);
  }
};

/** An error status must carry an error body; anything else is a server off its contract. */
const errorOf = (status: number, body: unknown): HelixApiError | HelixContractError => {
  const parsed = ErrorBodySchema.safeParse(body);
  return parsed.success ? new HelixApiError(parsed.data) : new HelixContractError(status, issuesOf(parsed.error));
};

/**
 * A typed REST client for the run endpoints, derived from the zod contract in src/api: request
 * bodies are the schemas' input types, and every response is validated against the operation's
 * output schema (errors against the error body schema) before the caller sees it. Every mutation
 * gets a fresh Idempotency-Key, and a transient failure (network error, 503) is retried with the
 * SAME key, so a retry can never run a turn twice.
 */
export class HelixRestClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  start(body: StartRunBody, options: MutationOptions = {}): Promise<RunSnapshot> {
    return this.mutate(RUNS, body, RunViewSchema, options);
  }

  continue(runId: string, body: ContinueRunBody, options: MutationOptions = {}): Promise<RunSnapshot> {
    return this.mutate(runPath(runId, '/continue'), body, RunViewSchema, options);
  }

  cancel(runId: string, body: CancelRunBody, options: MutationOptions = {}): Promise<RunSnapshot> {
    return this.mutate(runPath(runId, '/cancel'), body, RunViewSchema, options);
  }

  inspect(runId: string): Promise<RunSnapshot> {
    return this.request('GET', runPath(runId), RunViewSchema);
  }

  evidence(runId: string): Promise<RunEvidence> {
    return this.request('GET', runPath(runId, '/evidence'), EvidenceBundleSchema);
  }

  events(runId: string, params: ListEventsParams = {}): Promise<RunEventPage> {
    const query = new URLSearchParams(
      Object.entries(params).flatMap(([name, value]): [string, string][] =>
        value === undefined ? [] : [[name, String(value)]],
      ),
    ).toString();
    return this.request('GET', runPath(runId, `/events${query === '' ? '' : `?${query}`}`), EventPageSchema);
  }

  private async mutate<S extends z.ZodType>(
    path: string,
    body: unknown,
    schema: S,
    options: MutationOptions,
  ): Promise<z.infer<S>> {
    const key = options.idempotencyKey ?? `helix-cli-${randomUUID()}`;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.request('POST', path, schema, { body, idempotencyKey: key });
      } catch (err) {
        // A contract violation or a refusal will not change on retry; a lost connection or a 503 may.
        const transient = (err instanceof HelixApiError && err.status === 503) || err instanceof TypeError;
        if (!transient || attempt >= 3) throw err;
        await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
      }
    }
  }

  private async request<S extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    schema: S,
    send: { body?: unknown; idempotencyKey?: string } = {},
  ): Promise<z.infer<S>> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: 'application/json' };
    if (send.body !== undefined) headers['content-type'] = 'application/json';
    if (send.idempotencyKey !== undefined) headers['idempotency-key'] = send.idempotencyKey;
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      ...(send.body === undefined ? {} : { body: JSON.stringify(send.body) }),
    });
    const body = parseJson(response.status, await response.text());
    if (!response.ok) throw errorOf(response.status, body);
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new HelixContractError(response.status, issuesOf(parsed.error));
    return parsed.data;
  }
}
