import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HelixError } from '../../domain/errors.js';
import { listRoomWorkflows } from '../../service/embodiment/roomWorkflows.js';
import type { RoomDeps } from '../../service/rooms/deps.js';
import { listInvites } from '../../service/rooms/listInvites.js';
import { roomOverview } from '../../service/rooms/roomOverview.js';
import { createOwnedSource } from '../../service/roomSources/createOwnedSource.js';
import { CLAIM_PATH } from '../../service/roomSources/credentials.js';
import { listOwnedSources } from '../../service/roomSources/listOwnedSources.js';
import { revokeSource } from '../../service/roomSources/revokeSource.js';
import { rotateSource } from '../../service/roomSources/rotateSource.js';
import { enforceAccountLimit } from '../hardening/rateLimits.js';
import { publicOrigin } from '../resourceIdentity.js';
import { asAccount, type ConsoleContext, field, html, roomPath } from './consoleRequest.js';
import { type RoomPageExtras, roomPage } from './roomPages.js';
import { CLAIM_SCRIPT, claimPage, SOURCE_TTL_CHOICES } from './roomSourcePages.js';

type SourceParams = { room_id: string; source_id: string };

/**
 * The room page as the account sees it, with the room's open player workflows (MC-12 manual
 * override): an owner also gets the room's invites (D-09) and the source manager (SRC-06), listed
 * afresh, with the registry's adapters to create one with.
 */
export const renderRoomPage = async (
  rooms: RoomDeps,
  accountId: string,
  roomId: string,
  extras: Omit<RoomPageExtras, 'sources' | 'invites'> & { readonly claimLink?: string } = {},
): Promise<string> => {
  const view = await roomOverview(rooms, accountId, roomId);
  const { claimLink, ...rest } = extras;
  const shown = { ...rest, workflows: await listRoomWorkflows(rooms, accountId, roomId) };
  if (view.room.membership.role !== 'owner') return roomPage(view, accountId, shown);
  const { sources } = await listOwnedSources(rooms, accountId, roomId);
  const { invites } = await listInvites(rooms, accountId, roomId);
  const adapters = rooms.adapters.enabledProfiles().flatMap(({ profile }) => profile.domain_adapters);
  return roomPage(view, accountId, {
    ...shown,
    invites,
    sources: { sources, adapters, ...(claimLink === undefined ? {} : { claimLink }) },
  });
};

const ttlOf = (choice: string): number => {
  const ttl = (SOURCE_TTL_CHOICES as Readonly<Record<string, number>>)[choice];
  if (ttl === undefined)
    throw new HelixError('invalid_request', {
      issues: [{ path: 'ttl', message: `must be one of ${Object.keys(SOURCE_TTL_CHOICES).join(', ')}` }],
    });
  return ttl;
};

/** The claim link on this server's public origin; the handle rides in the fragment only (SRC-04). */
const claimLinkOf = (request: FastifyRequest, context: ConsoleContext, claimUrl: string): string =>
  `${publicOrigin(request, context.identity)}${claimUrl}`;

/**
 * The room page's source forms (SRC-06) and the claim landing (SRC-04): each form acts as the
 * signed-in owner through the use cases of src/service/roomSources/, counted against the
 * account's source-manager budget (SRC-10). Creation and rotation answer the room page with the
 * claim link, once; revocation goes back to the room page (post/redirect/get).
 */
export const registerSourcePages = (app: FastifyInstance, context: ConsoleContext, rooms: RoomDeps): void => {
  app.post<{ Params: { room_id: string } }>(
    '/account/rooms/:room_id/sources',
    asAccount<{ Params: { room_id: string } }>(context, async (accountId, request, reply) => {
      enforceAccountLimit(request, accountId, 'room_sources');
      const roomId = request.params.room_id;
      const created = await createOwnedSource(rooms, accountId, roomId, {
        domain_adapter: field(request, 'domain_adapter'),
        world_id: field(request, 'world_id'),
        source_label: field(request, 'source_label'),
        ttl_ms: ttlOf(field(request, 'ttl')),
      });
      const claimUrl = created.credential_delivery?.claim_url ?? '';
      const claimLink = claimLinkOf(request, context, claimUrl);
      return html(reply, 201, await renderRoomPage(rooms, accountId, roomId, { claimLink }));
    }),
  );
  app.post<{ Params: SourceParams }>(
    '/account/rooms/:room_id/sources/:source_id/rotate',
    asAccount<{ Params: SourceParams }>(context, async (accountId, request, reply) => {
      enforceAccountLimit(request, accountId, 'room_sources');
      const { room_id: roomId, source_id: sourceId } = request.params;
      const rotated = await rotateSource(rooms, accountId, sourceId, roomId);
      const claimLink = claimLinkOf(request, context, rotated.credential_delivery.claim_url);
      return html(reply, 200, await renderRoomPage(rooms, accountId, roomId, { claimLink }));
    }),
  );
  app.post<{ Params: SourceParams }>(
    '/account/rooms/:room_id/sources/:source_id/revoke',
    asAccount<{ Params: SourceParams }>(context, async (accountId, request, reply) => {
      enforceAccountLimit(request, accountId, 'room_sources');
      await revokeSource(rooms, accountId, request.params.source_id, request.params.room_id);
      return reply.redirect(roomPath(request.params.room_id), 303);
    }),
  );

  app.get(
    CLAIM_PATH,
    asAccount(context, async (_accountId, _request, reply) => html(reply, 200, claimPage())),
  );
  app.get(`${CLAIM_PATH}.js`, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send(CLAIM_SCRIPT),
  );
};
