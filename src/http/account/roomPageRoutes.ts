import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HelixError } from '../../domain/errors.js';
import { CONSENT_TEXT_MAX } from '../../domain/rooms.js';
import type { AccountDeps } from '../../service/accounts/deps.js';
import { consoleEmergencyStop } from '../../service/embodiment/roomWorkflows.js';
import { acceptConsent } from '../../service/rooms/acceptConsent.js';
import { acceptInvite } from '../../service/rooms/acceptInvite.js';
import { createAccountRoom } from '../../service/rooms/createAccountRoom.js';
import { createInvite } from '../../service/rooms/createInvite.js';
import type { RoomDeps } from '../../service/rooms/deps.js';
import { listAccountRooms } from '../../service/rooms/listAccountRooms.js';
import { publishConsentVersion } from '../../service/rooms/publishConsentVersion.js';
import { removeMember } from '../../service/rooms/removeMember.js';
import { revokeInvite } from '../../service/rooms/revokeInvite.js';
import { setMemberRole } from '../../service/rooms/setMemberRole.js';
import { asAccount, type ConsoleContext, field, html, roomPath } from './consoleRequest.js';
import { INVITE_SCRIPT, INVITE_TTL_CHOICES, invitePage, roomsPage } from './roomPages.js';
import { registerSourcePages, renderRoomPage } from './roomSourcePageRoutes.js';
import { publicOrigin, type ResourceIdentity } from '../resourceIdentity.js';

type Params = { room_id: string };

/** The account pages' form limit (src/http/account/pageRoutes.ts) for every form but the consent text. */
const FORM_BODY_LIMIT = 4096;
/**
 * A consent text may be 4,000 characters (CONSENT_TEXT_MAX); form encoding turns one character into
 * up to 12 bytes (`%XX` for each of 4 UTF-8 bytes), so its form gets room for the longest text.
 */
const CONSENT_BODY_LIMIT = 12 * CONSENT_TEXT_MAX + 1024;
/**
 * The invite link on this server's public origin (HELIX_PUBLIC_BASE_URL when set, so a link made
 * behind a proxy names the address invitees reach); the token travels in the fragment only.
 */
const inviteLinkOf = (request: FastifyRequest, identity: ResourceIdentity, token: string): string =>
  `${publicOrigin(request, identity)}/account/rooms/invite#${token}`;

const ttlOf = (choice: string): number => {
  const ttl = (INVITE_TTL_CHOICES as Readonly<Record<string, number>>)[choice];
  if (ttl === undefined)
    throw new HelixError('invalid_request', { issues: [{ path: 'ttl', message: 'must be 1h, 1d or 7d' }] });
  return ttl;
};

/**
 * The console's room pages beside /account (D-09, PRE-01): list and create rooms, the room page
 * (members, roles, invites, consent) and the invite landing. Registered inside the account pages'
 * scope, which parses the HTML form posts. The use cases live in src/service/rooms/.
 */
export const registerRoomPages = (
  app: FastifyInstance,
  accounts: AccountDeps,
  rooms: RoomDeps,
  identity: ResourceIdentity,
): void => {
  const context: ConsoleContext = { accounts, identity };
  const back = (reply: FastifyReply, roomId: string) => reply.redirect(roomPath(roomId), 303);

  app.get(
    '/account/rooms',
    asAccount(context, async (accountId, _request, reply) =>
      html(reply, 200, roomsPage(await listAccountRooms(rooms, accountId))),
    ),
  );
  app.post(
    '/account/rooms',
    asAccount(context, async (accountId, request, reply) => {
      const room = await createAccountRoom(rooms, accountId, field(request, 'title'));
      return back(reply, room.room_id);
    }),
  );

  app.get(
    '/account/rooms/invite',
    asAccount(context, async (_accountId, _request, reply) => html(reply, 200, invitePage())),
  );
  app.get('/account/rooms/invite.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send(INVITE_SCRIPT),
  );
  app.post(
    '/account/rooms/invite',
    asAccount(context, async (accountId, request, reply) => {
      const joined = await acceptInvite(rooms, accountId, field(request, 'token').trim());
      return back(reply, joined.room_id);
    }),
  );

  app.get<{ Params: Params }>(
    '/account/rooms/:room_id',
    asAccount<{ Params: Params }>(context, async (accountId, request, reply) =>
      html(reply, 200, await renderRoomPage(rooms, accountId, request.params.room_id)),
    ),
  );
  registerOwnerForms(app, context, rooms);
  registerSourcePages(app, context, rooms);
  // MC-12 manual override: a signed-in human stops a player workflow in their room.
  app.post<{ Params: Params & { workflow_ref: string } }>(
    '/account/rooms/:room_id/workflows/:workflow_ref/emergency-stop',
    { bodyLimit: FORM_BODY_LIMIT },
    asAccount<{ Params: Params & { workflow_ref: string } }>(context, async (accountId, request, reply) => {
      const { room_id: roomId, workflow_ref: workflowRef } = request.params;
      await consoleEmergencyStop(rooms, accountId, roomId, workflowRef);
      return back(reply, roomId);
    }),
  );
};

/** The room page's forms: each acts, then sends the browser back to the room page (post/redirect/get). */
const registerOwnerForms = (app: FastifyInstance, context: ConsoleContext, rooms: RoomDeps): void => {
  const post = (
    suffix: string,
    act: (accountId: string, roomId: string, request: FastifyRequest<{ Params: Params }>) => Promise<unknown>,
    bodyLimit = FORM_BODY_LIMIT,
  ) =>
    app.post<{ Params: Params }>(
      `/account/rooms/:room_id${suffix}`,
      { bodyLimit },
      asAccount<{ Params: Params }>(context, async (accountId, request, reply) => {
        await act(accountId, request.params.room_id, request);
        return reply.redirect(roomPath(request.params.room_id), 303);
      }),
    );

  // The invite link is the one answer that is not a redirect: it is shown in this page, once.
  app.post<{ Params: Params }>(
    '/account/rooms/:room_id/invites',
    asAccount<{ Params: Params }>(context, async (accountId, request, reply) => {
      const roomId = request.params.room_id;
      const ttlMs = ttlOf(field(request, 'ttl'));
      const invite = await createInvite(rooms, accountId, roomId, { role: field(request, 'role'), ttlMs });
      const inviteLink = inviteLinkOf(request, context.identity, invite.token);
      return html(reply, 201, await renderRoomPage(rooms, accountId, roomId, { inviteLink }));
    }),
  );
  app.post<{ Params: Params & { invite_ref: string } }>(
    '/account/rooms/:room_id/invites/:invite_ref/revoke',
    { bodyLimit: FORM_BODY_LIMIT },
    asAccount<{ Params: Params & { invite_ref: string } }>(context, async (accountId, request, reply) => {
      const { room_id: roomId, invite_ref: inviteRef } = request.params;
      await revokeInvite(rooms, accountId, roomId, inviteRef);
      return reply.redirect(roomPath(roomId), 303);
    }),
  );
  post('/members/role', (accountId, roomId, request) =>
    setMemberRole(rooms, accountId, roomId, field(request, 'account'), field(request, 'role')),
  );
  post('/members/remove', (accountId, roomId, request) =>
    removeMember(rooms, accountId, roomId, field(request, 'account')),
  );
  post(
    '/consent',
    (accountId, roomId, request) => publishConsentVersion(rooms, accountId, roomId, field(request, 'text')),
    CONSENT_BODY_LIMIT,
  );
  post('/consent/accept', (accountId, roomId, request) => {
    const version = Number(field(request, 'version'));
    if (!Number.isSafeInteger(version) || version < 1)
      throw new HelixError('invalid_request', {
        issues: [{ path: 'version', message: 'must be a consent version number' }],
      });
    return acceptConsent(rooms, accountId, roomId, version);
  });
};
