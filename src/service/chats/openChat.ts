import {
  CHAT_PAGE_MESSAGES,
  type ChatMessageRecord,
  type ChatRecord,
  type ObserverBindingRecord,
} from '../../domain/chats.js';
import { hasFeature } from '../../domain/accountPolicy.js';
import type { ChatDeps } from './deps.js';
import { loadOwnedChat } from './ownedChat.js';
import { projectTerminalMessage } from './projectTerminalMessage.js';

export interface OpenedChat {
  readonly chat: ChatRecord;
  readonly messages: readonly ChatMessageRecord[];
  /** The chat's newest observer binding, which the page's script resumes (OBS-16: one per chat). */
  readonly observer: ObserverBindingRecord | undefined;
}

/**
 * The chat page. Opening it first projects the bound run's verified terminal product, if there is
 * one and the lane is open (OBS-16: a reload writes a missing terminal message or repairs a
 * truncated copy, never a second one), then reads the messages.
 */
export const openChat = async (deps: ChatDeps, accountId: string, chatId: string): Promise<OpenedChat> => {
  const chat = await loadOwnedChat(deps.store.read.chats, chatId, accountId);
  const [observer] = await deps.store.read.chats.listObserverBindings(chatId, 1);
  // SLR-11, WD-06: terminal projection stays blocked while the policy locks the feature.
  if (observer?.status === 'active' && hasFeature(await deps.policies.forAccount(accountId), 'shared_live_room'))
    await projectTerminalMessage(deps, observer);
  const messages = await deps.store.read.chats.listMessages(chatId, CHAT_PAGE_MESSAGES);
  return { chat, messages, observer };
};
