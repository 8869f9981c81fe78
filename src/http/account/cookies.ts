import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../../accounts/sessions.js';

// @fastify/cookie (registered in src/http/app.ts) parses the Cookie header into `request.cookies`
// and serialises `reply.setCookie`; these helpers fix the session cookie's name and attributes.

/** How often a Cookie header names the session cookie (whitespace around the name as the parser allows it). */
const SESSION_NAME = new RegExp(`(?:^|;)\\s*${SESSION_COOKIE}\\s*=`, 'g');

/**
 * The session cookie, if the Cookie header names it exactly once. @fastify/cookie keeps the first
 * of duplicated names; a second `helix_session` (tossed in by a sibling subdomain, or a narrower
 * Path sorted first) makes the session ambiguous, so it fails closed instead.
 */
export const sessionCookieOf = (request: FastifyRequest): string | undefined => {
  const value = request.cookies[SESSION_COOKIE];
  if (value === undefined) return undefined;
  return (request.headers.cookie ?? '').match(SESSION_NAME)?.length === 1 ? value : undefined;
};

/** HttpOnly always; Secure in production; SameSite=Lax so a sign-in link opened from mail still lands signed in. */
export const setSessionCookie = (reply: FastifyReply, value: string, maxAgeSeconds: number, secure: boolean) =>
  reply.setCookie(SESSION_COOKIE, value, { path: '/', httpOnly: true, sameSite: 'lax', maxAge: maxAgeSeconds, secure });

/** The same attributes with an empty value and Max-Age=0 (no Expires: the attribute set stays the sign-in one). */
export const clearSessionCookie = (reply: FastifyReply, secure: boolean) => setSessionCookie(reply, '', 0, secure);
