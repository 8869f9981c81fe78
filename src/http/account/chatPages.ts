import type { ChatMessageRecord, ChatRecord, ObserverBindingRecord } from '../../domain/chats.js';
import { CHAT_MESSAGE_MAX, CHAT_TITLE_MAX, observerStatusAt } from '../../domain/chats.js';
import { escapeHtml, layout } from './page.js';

/**
 * The console's chat pages (D-05, PRE-03; docs/console.md "Chats and the observer lane"). Every
 * title and message is escaped here, so script in them renders as text; the one script is
 * /account/chats/chat.js (CSP `script-src 'self'`, no inline script).
 */
const nav = '<p><a href="/account">Account</a> · <a href="/account/chats">Chats</a></p>';
export const CHAT_SCRIPT_PATH = '/account/chats/chat.js';
export const chatPath = (chatId: string): string => `/account/chats/${encodeURIComponent(chatId)}`;

export const chatsPage = (chats: readonly ChatRecord[]): string =>
  layout(
    'Chats',
    `${nav}<h1>Chats</h1>
<form method="post" action="/account/chats">
<p><label>Title<br><input name="title" required maxlength="${CHAT_TITLE_MAX}" size="40" value="New chat"></label>
<button type="submit">New chat</button></p>
</form>
${chats.length === 0 ? '<p class="muted">No chats yet.</p>' : ''}
<ul id="chats">${chats.map((c) => `<li><a href="${chatPath(c.chatId)}">${escapeHtml(c.title)}</a></li>`).join('')}</ul>`,
  );

const ROLE_LABELS = { user: 'You', assistant: 'Assistant' } as const;

const messageItem = (m: ChatMessageRecord): string =>
  `<li class="message" data-role="${m.role}" data-message-id="${escapeHtml(m.messageId)}"><strong>${ROLE_LABELS[m.role]}</strong>
<div class="content" style="white-space:pre-wrap">${escapeHtml(m.content)}</div></li>`;

/** What the page's script resumes: the chat's newest observer binding, if it is still open (OBS-16). */
const observerAttributes = (observer: ObserverBindingRecord | undefined, now: number): string => {
  const status = observer === undefined ? 'none' : observerStatusAt(observer, now);
  const ref = observer !== undefined && (status === 'active' || status === 'pending_claim') ? observer.bindingRef : '';
  return `data-binding="${escapeHtml(ref)}" data-status="${status}"`;
};

export const chatPage = (
  chat: ChatRecord,
  messages: readonly ChatMessageRecord[],
  observer: ObserverBindingRecord | undefined,
  now: number,
): string =>
  layout(
    chat.title,
    `${nav}<h1 id="chat-title">${escapeHtml(chat.title)}</h1>
<ol id="messages">${messages.map(messageItem).join('\n')}</ol>
${messages.length === 0 ? '<p class="muted" id="no-messages">No messages yet.</p>' : ''}
<form method="post" action="${chatPath(chat.chatId)}/messages">
<p><label>Message<br><textarea name="content" rows="3" cols="60" required maxlength="${CHAT_MESSAGE_MAX}"></textarea></label></p>
<p><button type="submit">Send</button></p>
</form>
<section id="observer" data-chat="${escapeHtml(chat.chatId)}" ${observerAttributes(observer, now)}>
<h2>Agent observer</h2>
<p class="muted">An agent of your linked account can follow this chat: connect, then give it the one-time claim handle.
Its progress shows here; only its verified answer becomes one assistant message.</p>
<p id="observer-status">No agent connected.</p>
<p><button type="button" id="issue-claim">Connect an agent</button> <button type="button" id="disconnect" hidden>Disconnect</button></p>
<div id="claim" hidden><p>One-time claim handle (shown once; expires <span id="claim-expiry"></span>):</p><p><code id="claim-handle"></code></p></div>
<ol id="progress"></ol>
</section>
<h2>Chat settings</h2>
<form method="post" action="${chatPath(chat.chatId)}/rename">
<p><label>New title<br><input name="title" required maxlength="${CHAT_TITLE_MAX}" size="40" value="${escapeHtml(chat.title)}"></label>
<button type="submit">Rename</button></p>
</form>
<form method="post" action="${chatPath(chat.chatId)}/delete"><p><button type="submit">Delete chat</button></p></form>
<script src="${CHAT_SCRIPT_PATH}"></script>`,
  );

export const chatErrorPage = (message: string): string =>
  layout('Chats', `${nav}<h1>Chats</h1><p class="error" id="error">${escapeHtml(message)}</p>`);
