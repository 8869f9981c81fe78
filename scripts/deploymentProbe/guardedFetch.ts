/**
 * The only way the probe talks to the network: one origin, a bounded time, no redirects.
 *
 * Pinning the origin means a bearer can never be carried to another host, whatever a response
 * says (a Location header, a resource_metadata URL); refusing redirects keeps it that way.
 */
export class RequestRefused extends Error {
  override readonly name = 'RequestRefused';
}

export type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** The target of a probe and the only fetch that may reach it. */
export interface ProbeContext {
  readonly target: string;
  readonly fetch: Fetch;
  /** The probe's access token, when it has one: its audience is what metadata must name (expectedResource.ts). */
  readonly accessToken?: string;
}

export const guardedFetch =
  (origin: string, timeoutMs: number): Fetch =>
  async (url, init = {}) => {
    const target = new URL(url);
    if (target.origin !== origin) throw new RequestRefused(`request to another origin refused (${target.host})`);
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const response = await fetch(target, { ...init, redirect: 'manual', signal });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      throw new RequestRefused(`redirect refused (HTTP ${response.status})`);
    }
    return response;
  };

const MAX_BODY_BYTES = 1024 * 1024;

/** Reads at most 1 MiB of a body: a misbehaving target cannot make the probe buffer without bound. */
export const readBoundedText = async (response: Response): Promise<string> => {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new RequestRefused(`response body larger than ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
};

/** A bounded body parsed as JSON: undefined when it is empty or not JSON (the caller reports the status). */
export const readBoundedJson = async (response: Response): Promise<unknown> => {
  const text = await readBoundedText(response);
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/** A request failure as one line: undici hides the socket error (ECONNREFUSED, timeout) in `cause`. */
export const describeFailure = (err: unknown): string => {
  if (!(err instanceof Error)) return String(err);
  if (err.name === 'TimeoutError') return 'request timed out';
  const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
  const code =
    typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : undefined;
  return code === undefined ? err.message : `${err.message} (${code})`;
};
