import { ChatTitleSchema } from '../../api/chatSchemas.js';
import type { ChatRecord } from '../../domain/chats.js';
import { parseInput } from '../validate.js';
import type { ChatDeps } from './deps.js';
import { newChatId } from './ids.js';

/** The console's "New chat" (D-05, PRE-03): a durable chat of the signed-in account. */
export const createChat = async (deps: ChatDeps, accountId: string, title: string): Promise<ChatRecord> => {
  const now = deps.now();
  const chat: ChatRecord = {
    chatId: newChatId(),
    accountId,
    title: parseInput(ChatTitleSchema, title),
    createdAt: now,
    updatedAt: now,
  };
  await deps.store.read.chats.insertChat(chat);
  return chat;
};
