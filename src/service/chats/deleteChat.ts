import type { ChatDeps } from './deps.js';
import { chatNotFound, loadOwnedChat } from './ownedChat.js';

/**
 * Deletes the account's own chat with its messages and observer bindings, in one transaction; a
 * run bound to it loses the binding for good (WD-07), so nothing can write into a deleted chat.
 */
export const deleteChat = async (deps: ChatDeps, accountId: string, chatId: string): Promise<void> => {
  await loadOwnedChat(deps.store.read.chats, chatId, accountId);
  const now = deps.now();
  const deleted = await deps.store.transaction((uow) => uow.chats.deleteChat(chatId, accountId, now));
  if (!deleted) throw chatNotFound();
};
