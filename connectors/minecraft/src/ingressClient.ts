// HTTP to one of Helix's connector lanes (the source ingress, or the action lane of actionWire.ts):
// the lane's bearer in the Authorization header and nowhere else, a bounded number of attempts with
// exponential backoff, and the same body (so the same request_id) on every attempt, which lets Helix
// recognise a retry and refuse a replay. Each lane has its own client and its own bearer (M-02).
import { setTimeout as sleep } from 'node:timers/promises';
import { ACTION_ROUTES, type ActionRoute, actionUrl } from './actionWire.js';
import { type IngressRoute, ingressUrl } from './wire.js';

export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly timeoutMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  timeoutMs: 10_000,
};

const laneOf = (route: IngressRoute | ActionRoute): 'ingress' | 'action' =>
  (ACTION_ROUTES as readonly string[]).includes(route) ? 'action' : 'ingress';

/** Why a call failed for good; `retryable` failures were retried until the attempts ran out. */
export class IngressError extends Error {
  constructor(
    readonly route: IngressRoute | ActionRoute,
    readonly status: number | 'network',
    readonly code: string,
    readonly retryable: boolean,
  ) {
    super(`${laneOf(route)} ${route} failed: ${String(status)} ${code}`);
    this.name = 'IngressError';
  }

  /** Which lane, so a rejection names the right credential (source or action). */
  get lane(): 'ingress' | 'action' {
    return laneOf(this.route);
  }

  /** 401/403: the credential was revoked, rotated or expired; retrying cannot help. */
  get credentialRejected(): boolean {
    return this.status === 401 || this.status === 403;
  }
}

/** A client for one lane: `Route` is the lane's route names. */
export interface LaneClient<Route extends string> {
  post(route: Route, body: object, signal: AbortSignal): Promise<unknown>;
}
export type IngressClient = LaneClient<IngressRoute>;
export type ActionClient = LaneClient<ActionRoute>;

export interface IngressClientOptions {
  readonly baseUrl: string;
  readonly bindingId: string;
  readonly bearer: string;
  readonly retry?: RetryPolicy;
  readonly fetch?: typeof fetch;
}

const RETRYABLE_STATUSES = new Set([408, 425, 429, 500, 502, 503, 504]);

/** The delay before retry `n` (from 1): half fixed, half random, so many connectors spread out. */
export const retryDelayMs = (n: number, policy: RetryPolicy, random: () => number = Math.random): number => {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (n - 1));
  return Math.round(ceiling * (0.5 + random() / 2));
};

/** The `code` of a Helix error body (`helix.*.error.v1`: `{schema, code, message, status}`), nothing else of it. */
const errorCode = async (response: Response): Promise<string> => {
  const body = (await response.json().catch(() => undefined)) as { code?: unknown } | undefined;
  const code = body?.code;
  return typeof code === 'string' && /^[a-z0-9_.]{1,100}$/.test(code) ? code : 'unknown';
};

/** A success body: JSON, or `{}` when Helix answered without one (204, or an empty 200). */
const successBody = async (response: Response): Promise<unknown> => {
  const text = await response.text();
  return text.trim() === '' ? {} : JSON.parse(text);
};

type RouteUrl<Route extends string> = (baseUrl: string, bindingId: string, route: Route) => string;

const createLaneClient = <Route extends IngressRoute | ActionRoute>(
  options: IngressClientOptions,
  routeUrl: RouteUrl<Route>,
): LaneClient<Route> => {
  const policy = options.retry ?? DEFAULT_RETRY_POLICY;
  const doFetch = options.fetch ?? fetch;
  const attempt = async (route: Route, payload: string, signal: AbortSignal): Promise<unknown> => {
    let response: Response;
    try {
      response = await doFetch(routeUrl(options.baseUrl, options.bindingId, route), {
        method: 'POST',
        headers: { authorization: `Bearer ${options.bearer}`, 'content-type': 'application/json' },
        body: payload,
        signal: AbortSignal.any([signal, AbortSignal.timeout(policy.timeoutMs)]),
      });
    } catch {
      if (signal.aborted) throw new IngressError(route, 'network', 'aborted', false);
      throw new IngressError(route, 'network', 'unreachable', true);
    }
    if (response.ok) return successBody(response);
    throw new IngressError(route, response.status, await errorCode(response), RETRYABLE_STATUSES.has(response.status));
  };
  return {
    async post(route, body, signal) {
      const payload = JSON.stringify(body);
      for (let n = 1; ; n++) {
        try {
          return await attempt(route, payload, signal);
        } catch (error) {
          if (!(error instanceof IngressError) || !error.retryable || n >= policy.maxAttempts) throw error;
          await sleep(retryDelayMs(n, policy), undefined, { signal }).catch(() => {
            throw new IngressError(route, 'network', 'aborted', false);
          });
        }
      }
    },
  };
};

/** The source ingress lane, with the source bearer. */
export const createIngressClient = (options: IngressClientOptions): IngressClient =>
  createLaneClient(options, ingressUrl);

/** The action lane (ACTION_PREFIX), with the action bearer: never the source bearer (SRC-07, M-02). */
export const createActionClient = (options: IngressClientOptions): ActionClient => createLaneClient(options, actionUrl);
