import type { AccountDeps } from '../../src/service/accounts/deps.js';
import { issueSignInLink } from '../../src/service/accounts/issueSignInLink.js';

export interface ConsoleReply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly body: any;
}

/** Signs the account in with a one-time link over HTTP; answers its `helix_session=…` cookie pair. */
export const signInCookie = async (baseUrl: string, accounts: AccountDeps, accountId: string): Promise<string> => {
  const res = await fetch(`${baseUrl}/account/sign-in?code=${await issueSignInLink(accounts, accountId)}`, {
    redirect: 'manual',
  });
  return res.headers.get('set-cookie')!.split(';')[0]!;
};

/**
 * A fetch as the console page sends it: same origin (Origin and Sec-Fetch-Site), the session cookie
 * when given, a JSON body when given; `headers` override any of it (a cross-site request, say).
 */
export const consoleFetch = async (
  baseUrl: string,
  cookie: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ConsoleReply> => {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    redirect: 'manual',
    headers: {
      origin: new URL(baseUrl).origin,
      'sec-fetch-site': 'same-origin',
      ...(cookie === undefined ? {} : { cookie }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
};
