import type { ChatRecord } from '../../domain/chats.js';
import { isChatId } from '../../domain/chats.js';
import { HelixError } from '../../domain/errors.js';
import type { ChatRepository } from '../../store/chatPort.js';

export const chatNotFound = (): HelixError => new HelixError('not_found', {}, 'The chat was not found.');

/** OBS-07, OBS-08: a chat is the signed-in account's own; a malformed id and another account's chat read the same. */
export const loadOwnedChat = async (chats: ChatRepository, chatId: string, accountId: string): Promise<ChatRecord> => {
  if (!isChatId(chatId)) throw chatNotFound();
  const chat = await chats.getChat(chatId, accountId);
  if (chat === undefined) throw chatNotFound();
  return chat;
};
