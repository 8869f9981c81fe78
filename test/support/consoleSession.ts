import type { AccountDeps } from '../../src/service/accounts/deps.js';
import { issueSignInLink } from '../../src/service/accounts/issueSignInLink.js';

export interface ConsoleReply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly body: any;
}

/** A console form post as the page sends it: same origin, the session cookie, url-encoded fields. */
export const consoleForm = (
  baseUrl: string,
  cookie: string | undefined,
  path: string,
  fields: Record<string, string>,
) =>
  fetch(`${baseUrl}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: new URL(baseUrl).origin,
      'sec-fetch-site': 'same-origin',
      ...(cookie === undefined ? {} : { cookie }),
    },
    body: new URLSearchParams(fields),
  });

/**
 * Follows a sign-in link as a browser does: opening it shows the confirmation page (200, no
 * cookie), whose button posts the code back from this origin. Answers the post's reply (`303` and
 * `Set-Cookie` when the code is good); `cookie` is the browser's current session, if any.
 */
export const followSignInLink = async (baseUrl: string, code: string, cookie?: string): Promise<Response> => {
  const session = cookie === undefined ? {} : { cookie };
  const opened = await fetch(`${baseUrl}/account/sign-in?code=${encodeURIComponent(code)}`, { headers: session });
  await opened.text();
  return consoleForm(baseUrl, cookie, '/account/sign-in', { code });
};

/** Signs the account in with a one-time link over HTTP; answers its `helix_session=…` cookie pair. */
export const signInCookie = async (baseUrl: string, accounts: AccountDeps, accountId: string): Promise<string> => {
  const res = await followSignInLink(baseUrl, await issueSignInLink(accounts, accountId));
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
