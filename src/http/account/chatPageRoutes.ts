import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CHAT_MESSAGE_MAX } from '../../domain/chats.js';
import type { AccountDeps } from '../../service/accounts/deps.js';
import { createChat } from '../../service/chats/createChat.js';
import { deleteChat } from '../../service/chats/deleteChat.js';
import type { ChatDeps } from '../../service/chats/deps.js';
import { listChats } from '../../service/chats/listChats.js';
import { openChat } from '../../service/chats/openChat.js';
import { postMessage } from '../../service/chats/postMessage.js';
import { renameChat } from '../../service/chats/renameChat.js';
import type { ResourceIdentity } from '../resourceIdentity.js';
import { chatErrorPage, chatPage, chatPath, chatsPage, CHAT_SCRIPT_PATH } from './chatPages.js';
import { CHAT_SCRIPT } from './chatScript.js';
import { asAccount, type ConsoleContext, field, html } from './consoleRequest.js';

type Params = { chat_id: string };

/** The account pages' form limit (src/http/account/pageRoutes.ts). */
const FORM_BODY_LIMIT = 4096;
/** A message may be 8,000 characters (CHAT_MESSAGE_MAX); form encoding takes up to 12 bytes for one. */
const MESSAGE_BODY_LIMIT = 12 * CHAT_MESSAGE_MAX + 1024;

/**
 * The console's chats (D-05, PRE-03): list, create, open, rename, delete, and the user's own
 * messages. Registered inside the account pages' scope, which parses the HTML form posts; every
 * post is same-origin checked (asAccount), a guest gets the sign-in page, another account's chat
 * reads "not found" (OBS-08). The use cases live in src/service/chats/.
 */
export const registerChatPages = (
  app: FastifyInstance,
  accounts: AccountDeps,
  chats: ChatDeps,
  identity: ResourceIdentity,
): void => {
  const context: ConsoleContext = { accounts, identity };
  const back = (reply: FastifyReply, chatId: string) => reply.redirect(chatPath(chatId), 303);

  app.get(
    '/account/chats',
    asAccount(
      context,
      async (accountId, _r, reply) => html(reply, 200, chatsPage(await listChats(chats, accountId))),
      chatErrorPage,
    ),
  );
  app.post(
    '/account/chats',
    asAccount(
      context,
      async (accountId, request, reply) =>
        back(reply, (await createChat(chats, accountId, field(request, 'title'))).chatId),
      chatErrorPage,
    ),
  );
  app.get(CHAT_SCRIPT_PATH, async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(CHAT_SCRIPT));
  app.get<{ Params: Params }>(
    '/account/chats/:chat_id',
    asAccount<{ Params: Params }>(
      context,
      async (accountId, request, reply) => {
        const opened = await openChat(chats, accountId, request.params.chat_id);
        return html(reply, 200, chatPage(opened.chat, opened.messages, opened.observer, chats.now()));
      },
      chatErrorPage,
    ),
  );
  /** One form of the chat page: its use case as the account, then `303` to where it leads. */
  const chatForm = (
    action: string,
    act: (accountId: string, chatId: string, request: FastifyRequest) => Promise<void>,
    next: (chatId: string) => string,
    bodyLimit = FORM_BODY_LIMIT,
  ) =>
    app.post<{ Params: Params }>(
      `/account/chats/:chat_id/${action}`,
      { bodyLimit },
      asAccount<{ Params: Params }>(
        context,
        async (accountId, request, reply) => {
          await act(accountId, request.params.chat_id, request);
          return reply.redirect(next(request.params.chat_id), 303);
        },
        chatErrorPage,
      ),
    );
  chatForm('rename', (a, id, r) => renameChat(chats, a, id, field(r, 'title')), chatPath);
  chatForm('messages', (a, id, r) => postMessage(chats, a, id, field(r, 'content')), chatPath, MESSAGE_BODY_LIMIT);
  chatForm(
    'delete',
    (a, id) => deleteChat(chats, a, id),
    () => '/account/chats',
  );
};
