import { ChatTitleSchema } from '../../api/chatSchemas.js';
import { parseInput } from '../validate.js';
import type { ChatDeps } from './deps.js';
import { chatNotFound, loadOwnedChat } from './ownedChat.js';

/** Renames the account's own chat; another account's reads "not found". */
export const renameChat = async (deps: ChatDeps, accountId: string, chatId: string, title: string): Promise<void> => {
  await loadOwnedChat(deps.store.read.chats, chatId, accountId);
  const valid = parseInput(ChatTitleSchema, title);
  if (!(await deps.store.read.chats.renameChat(chatId, accountId, valid, deps.now()))) throw chatNotFound();
};
