import { ChatMessageContentSchema } from '../../api/chatSchemas.js';
import { redactCredentialText } from '../../domain/credentialShape.js';
import type { ChatDeps } from './deps.js';
import { newChatMessageId } from './ids.js';
import { loadOwnedChat } from './ownedChat.js';
import { parseInput } from '../validate.js';

/**
 * The console's message form: always a `user` message (OBS-14: no form, route or snapshot can
 * write an assistant message; only projectTerminalMessage.ts does). Credential-shaped runs are
 * redacted before storage, as the snapshot is (OBS-10).
 */
export const postMessage = async (
  deps: ChatDeps,
  accountId: string,
  chatId: string,
  content: string,
): Promise<void> => {
  await loadOwnedChat(deps.store.read.chats, chatId, accountId);
  const text = redactCredentialText(parseInput(ChatMessageContentSchema, content));
  const now = deps.now();
  await deps.store.transaction(async (uow) => {
    await uow.chats.insertMessage({
      messageId: newChatMessageId(),
      chatId,
      accountId,
      role: 'user',
      content: text,
      createdAt: now,
    });
    await uow.chats.touchChat(chatId, now);
  });
};
