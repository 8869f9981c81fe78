import { SESSION_COOKIE } from '../../accounts/sessions.js';

/** The session cookie from a Cookie header, if present exactly once. */
export const sessionCookieOf = (header: string | undefined): string | undefined => {
  if (header === undefined) return undefined;
  const values = header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.startsWith(`${SESSION_COOKIE}=`))
    .map((part) => part.slice(SESSION_COOKIE.length + 1));
  return values.length === 1 ? values[0] : undefined;
};

/** HttpOnly always; Secure in production; SameSite=Lax so a sign-in link opened from mail still lands signed in. */
export const setSessionCookie = (value: string, maxAgeSeconds: number, secure: boolean): string =>
  `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;

export const clearSessionCookie = (secure: boolean): string => setSessionCookie('', 0, secure);
