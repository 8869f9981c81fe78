import type { TerminalProjection } from '../../api/chatViews.js';
import { type ObserverBindingRecord, terminalMessageId, verifiedTerminalText } from '../../domain/chats.js';
import { redactCredentialText } from '../../domain/credentialShape.js';
import type { ChatDeps } from './deps.js';

/**
 * OBS-14, OBS-16: the one place an assistant message enters a chat. It is written only from the
 * verified canonical terminal product of the bound run (verifiedTerminalText: completed, terminal
 * authority authorized), under a stable id derived from the run-chat binding, so concurrent polls,
 * a second tab or a reload insert it at most once. A stored copy that is a strict prefix of the
 * canonical text (truncated) is repaired; any other difference is left alone, never overwritten.
 * Event pages, receipts and unverified candidates have no path here. The caller checked the lane
 * is active and the feature unlocked (SLR-11); the run-chat binding is checked here, since the
 * agent may have withdrawn it (RREST-07).
 */
export const projectTerminalMessage = async (
  deps: ChatDeps,
  binding: ObserverBindingRecord,
): Promise<TerminalProjection | null> => {
  if (binding.runId === null || binding.runChatBindingRef === null) return null;
  const chatBinding = await deps.store.read.rooms.getChatBinding(binding.runChatBindingRef);
  if (chatBinding?.status !== 'active') return null;
  const run = await deps.store.read.runs.get(binding.runId);
  const verified = run === undefined ? undefined : verifiedTerminalText(run);
  if (verified === undefined) return null;
  // SLR-09: protected material is redacted before chat output too.
  const content = redactCredentialText(verified);
  const messageId = terminalMessageId(binding.runChatBindingRef);
  const chats = deps.store.read.chats;
  const existing = await chats.getMessage(messageId);
  if (existing === undefined) {
    const now = deps.now();
    const message = {
      messageId,
      chatId: binding.chatId,
      accountId: binding.accountId,
      role: 'assistant' as const,
      content,
      createdAt: now,
    };
    const appended = await chats.insertMessageIfAbsent(message);
    if (appended) await chats.touchChat(binding.chatId, now);
    return { message_id: messageId, appended };
  }
  const truncated = existing.content !== content && content.startsWith(existing.content);
  if (truncated) await chats.replaceMessageContent(messageId, content);
  return { message_id: messageId, appended: truncated };
};
