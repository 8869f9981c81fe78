import type { ChatRecord } from '../../domain/chats.js';
import type { ChatDeps } from './deps.js';

/** The signed-in account's chats, most recently active first; never another account's (OBS-07). */
export const listChats = (deps: ChatDeps, accountId: string): Promise<ChatRecord[]> =>
  deps.store.read.chats.listChats(accountId);
