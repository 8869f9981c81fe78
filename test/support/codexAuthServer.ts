import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, generateKeyPair, type CryptoKey } from 'jose';
import {
  CODEX_ACCOUNT_CLAIM,
  CODEX_CLIENT_ID,
  CODEX_ORIGINATOR,
  CODEX_SCOPE,
  codexPaths,
} from '../../src/model/codex/endpoints.js';

/**
 * A loopback stand-in for auth.openai.com speaking the pinned OAuth wire format: authorize (302 to
 * the loopback callback), token (authorization_code and refresh_token grants issuing real signed
 * JWTs), and device authorization. Refresh outcomes are scripted. It records requests for
 * assertions and never prints anything.
 */

export type RefreshOutcome =
  | { readonly kind: 'rotate' }
  /** Answers only the listed fields (plus expires_in unless `omitExpiresIn`). */
  | {
      readonly kind: 'partial';
      readonly fields: readonly ('id_token' | 'access_token' | 'refresh_token')[];
      readonly omitExpiresIn?: boolean;
    }
  | { readonly kind: 'error'; readonly status: number; readonly body: unknown }
  | { readonly kind: 'redirect'; readonly status: number; readonly location: string };

export type AuthorizeOutcome =
  | { readonly kind: 'code' }
  | { readonly kind: 'error'; readonly error: string; readonly description?: string }
  | { readonly kind: 'wrong-state' };

export interface RecordedRequest {
  readonly path: string;
  readonly grantType?: string;
  /** Form or JSON fields as sent; kept in memory for assertions only. */
  readonly fields: Readonly<Record<string, string>>;
}

export interface IssuedTokens {
  readonly id_token: string;
  readonly access_token: string;
  readonly refresh_token: string;
}

export interface DeviceScript {
  enabled: boolean;
  /** Polls answered "pending" before approval. */
  pendingPolls: number;
  pendingStatus: 403 | 404;
  /** When set, polls answer this status instead (a failure). */
  failStatus?: number;
  interval: string | undefined;
  codeField: 'user_code' | 'usercode';
}

export interface CodexAuthServer {
  readonly origin: string;
  readonly accountId: string;
  readonly requests: RecordedRequest[];
  readonly device: DeviceScript;
  authorize: AuthorizeOutcome;
  /** Access-token lifetime for newly issued tokens (`expires_in` and the JWT `exp`). */
  accessLifetimeSeconds: number;
  /** Omit `expires_in` from authorization-code responses. */
  omitExpiresIn: boolean;
  /** Queues refresh outcomes; when the queue is empty a refresh rotates everything. */
  scriptRefresh(...outcomes: RefreshOutcome[]): void;
  /** Mints tokens as the server would (for seeding a credential document). */
  mint(options: { expiresInSeconds: number; accountId?: string }): Promise<IssuedTokens>;
  grants(type: string): RecordedRequest[];
  close(): Promise<void>;
}

const readBody = async (request: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

const json = (response: ServerResponse, status: number, body: unknown): void => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

const AUTHORIZE_EXPECTED: Record<string, string> = {
  response_type: 'code',
  client_id: CODEX_CLIENT_ID,
  scope: CODEX_SCOPE,
  code_challenge_method: 'S256',
  id_token_add_organizations: 'true',
  codex_cli_simplified_flow: 'true',
  originator: CODEX_ORIGINATOR,
};

export const startCodexAuthServer = async (
  options: { accountId?: string; now?: () => number } = {},
): Promise<CodexAuthServer> => {
  const accountId = options.accountId ?? `acct_${randomBytes(6).toString('hex')}`;
  const now = options.now ?? Date.now;
  const { privateKey } = await generateKeyPair('ES256');
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const refreshScript: RefreshOutcome[] = [];
  const requests: RecordedRequest[] = [];
  let origin = '';

  const sign = (key: CryptoKey, claims: Record<string, unknown>, expiresInSeconds: number): Promise<string> =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
      .setIssuer(origin)
      .setIssuedAt(Math.floor(now() / 1000))
      .setExpirationTime(Math.floor(now() / 1000) + expiresInSeconds)
      .setJti(randomBytes(8).toString('hex'))
      .sign(key);

  const mint = async ({
    expiresInSeconds,
    accountId: account = accountId,
  }: {
    expiresInSeconds: number;
    accountId?: string;
  }): Promise<IssuedTokens> => ({
    id_token: await sign(
      privateKey,
      { email: 'user@example.test', [CODEX_ACCOUNT_CLAIM]: { chatgpt_account_id: account } },
      expiresInSeconds,
    ),
    access_token: await sign(
      privateKey,
      { scp: ['openid'], [CODEX_ACCOUNT_CLAIM]: { chatgpt_account_id: account } },
      expiresInSeconds,
    ),
    refresh_token: `rt_${randomBytes(24).toString('base64url')}`,
  });

  const state: CodexAuthServer = {
    origin: '',
    accountId,
    requests,
    device: { enabled: true, pendingPolls: 0, pendingStatus: 403, interval: '1', codeField: 'user_code' },
    authorize: { kind: 'code' },
    accessLifetimeSeconds: 3600,
    omitExpiresIn: false,
    scriptRefresh: (...outcomes) => void refreshScript.push(...outcomes),
    mint,
    grants: (type) => requests.filter((r) => r.grantType === type),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const newCode = (challenge: string, redirectUri: string): string => {
    const code = `ac_${randomBytes(16).toString('base64url')}`;
    codes.set(code, { challenge, redirectUri });
    return code;
  };

  const authorize = (url: URL, response: ServerResponse): void => {
    const params = url.searchParams;
    const wrong = Object.entries(AUTHORIZE_EXPECTED)
      .filter(([key, value]) => params.get(key) !== value)
      .map(([key]) => key);
    const redirectUri = params.get('redirect_uri') ?? '';
    if (!/^http:\/\/localhost:\d+\/auth\/callback$/.test(redirectUri)) wrong.push('redirect_uri');
    for (const key of ['code_challenge', 'state']) if ((params.get(key) ?? '') === '') wrong.push(key);
    if (wrong.length > 0) return json(response, 400, { error: 'invalid_request', fields: wrong });
    const target = new URL(redirectUri);
    const outcome = state.authorize;
    if (outcome.kind === 'error') {
      target.searchParams.set('error', outcome.error);
      if (outcome.description !== undefined) target.searchParams.set('error_description', outcome.description);
      target.searchParams.set('state', params.get('state')!);
    } else {
      target.searchParams.set('code', newCode(params.get('code_challenge')!, redirectUri));
      target.searchParams.set('state', outcome.kind === 'wrong-state' ? 'forged-state' : params.get('state')!);
    }
    response.writeHead(302, { location: target.toString() });
    response.end();
  };

  const tokenResponse = async (includeExpiresIn: boolean): Promise<Record<string, unknown>> => ({
    ...(await mint({ expiresInSeconds: state.accessLifetimeSeconds })),
    token_type: 'Bearer',
    ...(includeExpiresIn ? { expires_in: state.accessLifetimeSeconds } : {}),
  });

  const token = async (fields: Record<string, string>, response: ServerResponse): Promise<void> => {
    if (fields.client_id !== CODEX_CLIENT_ID) return json(response, 401, { error: 'invalid_client' });
    if (fields.grant_type === 'authorization_code') {
      const issued = codes.get(fields.code ?? '');
      codes.delete(fields.code ?? '');
      const verifier = fields.code_verifier ?? '';
      if (
        issued === undefined ||
        issued.redirectUri !== fields.redirect_uri ||
        createHash('sha256').update(verifier).digest('base64url') !== issued.challenge
      ) {
        return json(response, 400, { error: 'invalid_grant' });
      }
      return json(response, 200, await tokenResponse(!state.omitExpiresIn));
    }
    if (fields.grant_type === 'refresh_token') {
      if ((fields.refresh_token ?? '') === '') return json(response, 400, { error: 'invalid_request' });
      const outcome = refreshScript.shift() ?? { kind: 'rotate' };
      switch (outcome.kind) {
        case 'rotate':
          return json(response, 200, await tokenResponse(true));
        case 'partial': {
          const full = await tokenResponse(outcome.omitExpiresIn !== true);
          const body = Object.fromEntries(
            Object.entries(full).filter(
              ([key]) =>
                !['id_token', 'access_token', 'refresh_token'].includes(key) ||
                (outcome.fields as readonly string[]).includes(key),
            ),
          );
          return json(response, 200, body);
        }
        case 'error':
          return json(response, outcome.status, outcome.body);
        case 'redirect':
          response.writeHead(outcome.status, { location: outcome.location });
          response.end();
          return;
      }
    }
    return json(response, 400, { error: 'unsupported_grant_type' });
  };

  const deviceStart = (fields: Record<string, string>, response: ServerResponse): void => {
    if (!state.device.enabled) return json(response, 404, { error: 'not_found' });
    if (fields.client_id !== CODEX_CLIENT_ID) return json(response, 400, { error: 'invalid_client' });
    json(response, 200, {
      device_auth_id: `dev_${randomBytes(8).toString('hex')}`,
      [state.device.codeField]: 'ABCD-1234',
      ...(state.device.interval === undefined ? {} : { interval: state.device.interval }),
    });
  };

  const devicePoll = (response: ServerResponse): void => {
    if (state.device.failStatus !== undefined)
      return json(response, state.device.failStatus, { error: 'server_error' });
    if (state.device.pendingPolls > 0) {
      state.device.pendingPolls--;
      return json(response, state.device.pendingStatus, { error: { code: 'deviceauth_authorization_pending' } });
    }
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    json(response, 200, {
      authorization_code: newCode(challenge, `${origin}${codexPaths.deviceRedirect}`),
      code_challenge: challenge,
      code_verifier: verifier,
    });
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const raw = await readBody(request);
      const isJson = (request.headers['content-type'] ?? '').includes('application/json');
      let fields: Record<string, string> = {};
      try {
        fields = isJson ? (JSON.parse(raw) as Record<string, string>) : Object.fromEntries(new URLSearchParams(raw));
      } catch {
        return json(response, 400, { error: 'invalid_request' });
      }
      requests.push({
        path: url.pathname,
        ...(fields.grant_type === undefined ? {} : { grantType: fields.grant_type }),
        fields,
      });
      if (request.method === 'GET' && url.pathname === codexPaths.authorize) return authorize(url, response);
      if (request.method === 'POST' && url.pathname === codexPaths.token) return token(fields, response);
      if (request.method === 'POST' && url.pathname === codexPaths.deviceStart) return deviceStart(fields, response);
      if (request.method === 'POST' && url.pathname === codexPaths.devicePoll) return devicePoll(response);
      return json(response, 404, { error: 'not_found' });
    })().catch(() => {
      if (!response.headersSent) json(response, 500, { error: 'fixture_failure' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, { origin });
};

/** A server that only counts requests: the place a refused redirect points, which must never be reached. */
export const startHitCounter = async () => {
  let hits = 0;
  const server = createServer((_request, response) => {
    hits++;
    response.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/stolen`,
    hits: () => hits,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
