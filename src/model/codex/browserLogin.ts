import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { CodexAuthError } from './codexAuthError.js';
import { CODEX_CALLBACK_PATH, CODEX_CALLBACK_PORTS, type CodexEndpoints } from './endpoints.js';
import { authorizationResponse } from './oauthClient.js';
import { buildAuthorizeUrl, createPkce, createState, type Pkce } from './pkce.js';
import { exchangeAuthorizationCode, type CodexTokens } from './tokenClient.js';

const DEFAULT_TIMEOUT_MS = 10 * 60_000;
/** After `GET /cancel`, how often to retry a busy port before moving to the next one. */
const BIND_RETRIES = 5;
const BIND_RETRY_DELAY_MS = 200;

export interface BrowserLoginOptions {
  readonly endpoints: CodexEndpoints;
  /** Callback ports in order of preference (default 1455, then 1457, as the official CLI). */
  readonly ports?: readonly number[];
  /** Skip the callback server: the user pastes the redirect URL from the browser's address bar. */
  readonly paste?: boolean;
  readonly timeoutMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
}

export interface PendingBrowserLogin {
  /** Open this in a browser. It carries no secret: the PKCE verifier never leaves this process. */
  readonly authorizeUrl: string;
  /** The bound callback port; undefined when no port could be bound (or `paste` was asked): paste the URL. */
  readonly port: number | undefined;
  /** Waits for the browser's redirect to the callback server, then exchanges the code. */
  waitForCallback(signal?: AbortSignal): Promise<CodexTokens>;
  /** Completes with the redirect URL the user pasted (the page at localhost may fail to load; its URL is what counts). */
  completeWithPastedUrl(pasted: string, signal?: AbortSignal): Promise<CodexTokens>;
  /** Stops the callback server. Idempotent. */
  close(): Promise<void>;
}

const redirectUriFor = (port: number): string => `http://localhost:${port}${CODEX_CALLBACK_PATH}`;

/** Resolves once the page is handed to the OS, so closing the server afterwards cannot cut it off. */
const page = (response: ServerResponse, status: number, text: string): Promise<void> =>
  new Promise((resolve) => {
    response.writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'close',
    });
    response.end(
      `<!doctype html><meta charset="utf-8"><title>Helix</title><p>${text.replace(/[<>&"]/g, ' ')}</p>`,
      () => resolve(),
    );
  });

const listen = (server: Server, port: number): Promise<boolean> =>
  new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (err.code === 'EADDRINUSE' || err.code === 'EACCES') resolve(false);
      else reject(err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve(true);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, '127.0.0.1');
  });

/** Asks an earlier login server on `port` to stop, as the official CLI does; any answer or none is fine. */
const cancelOldLogin = async (port: number): Promise<void> => {
  await fetch(`http://127.0.0.1:${port}/cancel`, { signal: AbortSignal.timeout(1000), redirect: 'manual' })
    .then((response) => response.body?.cancel())
    .catch(() => undefined);
};

const bindFirstFree = async (
  server: Server,
  ports: readonly number[],
  sleep: (ms: number) => Promise<void>,
): Promise<number | undefined> => {
  for (const port of ports) {
    if (await listen(server, port)) return (server.address() as AddressInfo).port;
    await cancelOldLogin(port);
    for (let attempt = 0; attempt < BIND_RETRIES; attempt++) {
      await sleep(BIND_RETRY_DELAY_MS);
      if (await listen(server, port)) return (server.address() as AddressInfo).port;
    }
  }
  return undefined;
};

type Outcome = { tokens: CodexTokens } | { error: unknown };

/** What one login needs to exchange the code it is sent. */
interface LoginContext {
  readonly endpoints: CodexEndpoints;
  readonly state: string;
  readonly redirectUri: string;
  readonly pkce: Pkce;
  readonly now: (() => number) | undefined;
}

const exchange = (login: LoginContext, callback: URLSearchParams, signal: AbortSignal): Promise<CodexTokens> =>
  exchangeAuthorizationCode(
    login.endpoints,
    { callback, redirectUri: login.redirectUri, codeVerifier: login.pkce.verifier },
    signal,
    login.now,
  );

/** Stops the callback server once, whoever asks first. */
const closerOf = (server: Server): (() => Promise<void>) => {
  let closing: Promise<void> | undefined;
  return () => {
    if (!server.listening) return closing ?? Promise.resolve();
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closing;
  };
};

/**
 * Answers the loopback callback: one code per login (a second callback meanwhile gets 404), and
 * `/cancel` from a newer login. The handler is live from the moment the port is bound, so a fast
 * browser cannot be missed; the outcome settles once.
 */
const serveCallbacks = (
  server: Server,
  login: LoginContext,
  close: () => Promise<void>,
): { outcome: Promise<Outcome>; stopExchange: () => void } => {
  const internal = new AbortController();
  let settled = false;
  let settle: (result: Outcome) => void = () => undefined;
  const outcome = new Promise<Outcome>((resolve) => (settle = resolve));
  const finish = (result: Outcome): void => {
    if (settled) return;
    settled = true;
    settle(result);
  };
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/cancel') {
      finish({ error: new CodexAuthError('login_cancelled', 'another login on this machine cancelled this one') });
      // Free the port even if nobody is waiting on this login yet.
      void page(response, 200, 'Login cancelled.').then(close);
      return;
    }
    if (url.pathname !== CODEX_CALLBACK_PATH || settled) return void page(response, 404, 'Not found.');
    settled = true;
    let callback: URLSearchParams;
    try {
      callback = authorizationResponse(login.endpoints, url.searchParams, login.state);
    } catch (err) {
      void page(response, 400, (err as Error).message).then(() => settle({ error: err }));
      return;
    }
    exchange(login, callback, internal.signal).then(
      (tokens) =>
        page(response, 200, 'Signed in to Codex. You can close this tab and return to the terminal.').then(() =>
          settle({ tokens }),
        ),
      (err: unknown) =>
        page(response, 502, `The sign-in could not be completed: ${(err as Error).message}`).then(() =>
          settle({ error: err }),
        ),
    );
  });
  return { outcome, stopExchange: () => internal.abort() };
};

/** The callback's outcome, or a typed error when the timeout passes or the caller aborts first. */
const raceCallback = async (outcome: Promise<Outcome>, timeoutMs: number, signal: AbortSignal): Promise<Outcome> => {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<Outcome>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          error: new CodexAuthError('login_timeout', 'no login callback arrived in time; run the login again'),
        }),
      timeoutMs,
    );
    onAbort = () => resolve({ error: new CodexAuthError('aborted', 'the login was aborted') });
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([outcome, stopped]);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
};

/** The redirect URL the user pasted, exchanged like a callback. */
const exchangePasted = async (login: LoginContext, pasted: string, signal: AbortSignal): Promise<CodexTokens> => {
  let url: URL;
  try {
    url = new URL(pasted.trim());
  } catch {
    throw new CodexAuthError('invalid_callback', 'that is not a URL; paste the whole address the browser was sent to');
  }
  return exchange(login, authorizationResponse(login.endpoints, url.searchParams, login.state), signal);
};

/**
 * Starts a browser (authorization code + PKCE S256) login: binds the loopback callback server and
 * builds the authorize URL for the port actually bound. With `paste`, or when no port is free, the
 * user pastes the redirect URL instead (the redirect then names the first preferred port).
 */
export const startBrowserLogin = async (options: BrowserLoginOptions): Promise<PendingBrowserLogin> => {
  const ports = options.ports ?? CODEX_CALLBACK_PORTS;
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  const server = createServer();
  const port = options.paste === true ? undefined : await bindFirstFree(server, ports, sleep);
  const login: LoginContext = {
    endpoints: options.endpoints,
    state: createState(),
    redirectUri: redirectUriFor(port ?? ports[0] ?? CODEX_CALLBACK_PORTS[0]),
    pkce: await createPkce(),
    now: options.now,
  };
  const authorizeUrl = buildAuthorizeUrl(options.endpoints, {
    redirectUri: login.redirectUri,
    challenge: login.pkce.challenge,
    state: login.state,
  });
  const close = closerOf(server);
  const { outcome, stopExchange } = serveCallbacks(server, login, close);

  const waitForCallback = async (signal: AbortSignal = new AbortController().signal): Promise<CodexTokens> => {
    if (port === undefined)
      throw new CodexAuthError(
        'no_callback_port',
        'no loopback callback port is bound; paste the redirect URL instead',
      );
    try {
      const result = await raceCallback(outcome, options.timeoutMs ?? DEFAULT_TIMEOUT_MS, signal);
      if ('error' in result) throw result.error;
      return result.tokens;
    } finally {
      stopExchange();
      await close();
    }
  };

  const completeWithPastedUrl = async (
    pasted: string,
    signal: AbortSignal = new AbortController().signal,
  ): Promise<CodexTokens> => {
    try {
      return await exchangePasted(login, pasted, signal);
    } finally {
      await close();
    }
  };

  return { authorizeUrl, port, waitForCallback, completeWithPastedUrl, close };
};
