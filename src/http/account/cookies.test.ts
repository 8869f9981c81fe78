import { fastifyCookie } from '@fastify/cookie';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearSessionCookie, sessionCookieOf, setSessionCookie } from './cookies.js';

describe('the session cookie through @fastify/cookie', () => {
  const app = Fastify();
  beforeAll(async () => {
    await app.register(fastifyCookie);
    app.get('/read', async (request) => ({ session: sessionCookieOf(request) ?? null }));
    app.get<{ Querystring: { secure?: string } }>('/set', async (request, reply) =>
      setSessionCookie(reply, 'abc_DEF-123', 43_200, request.query.secure === '1').send('ok'),
    );
    app.get<{ Querystring: { secure?: string } }>('/clear', async (request, reply) =>
      clearSessionCookie(reply, request.query.secure === '1').send('ok'),
    );
    await app.ready();
  });
  afterAll(() => app.close());

  const read = async (cookie?: string) =>
    (await app.inject({ url: '/read', headers: cookie === undefined ? {} : { cookie } })).json().session;
  const setCookie = async (url: string) => (await app.inject({ url })).headers['set-cookie'];

  it('reads the session among other cookies, and none when it is absent', async () => {
    expect(await read('theme=dark; helix_session=abc_DEF-123; lang=en')).toBe('abc_DEF-123');
    expect(await read('theme=dark')).toBeNull();
    expect(await read()).toBeNull();
  });

  it('fails closed when the Cookie header names the session twice (a tossed cookie)', async () => {
    expect(await read('helix_session=mine; helix_session=tossed')).toBeNull();
    expect(await read('helix_session=mine;helix_session =tossed')).toBeNull();
    expect(await read('not_helix_session=x; helix_session=mine')).toBe('mine');
  });

  it('writes HttpOnly, SameSite=Lax, Path=/ and Max-Age, and Secure only when asked', async () => {
    expect(await setCookie('/set')).toBe('helix_session=abc_DEF-123; Max-Age=43200; Path=/; HttpOnly; SameSite=Lax');
    expect(await setCookie('/set?secure=1')).toBe(
      'helix_session=abc_DEF-123; Max-Age=43200; Path=/; HttpOnly; Secure; SameSite=Lax',
    );
  });

  it('clears with the same attributes, an empty value and Max-Age=0', async () => {
    expect(await setCookie('/clear?secure=1')).toBe(
      'helix_session=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax',
    );
  });
});
