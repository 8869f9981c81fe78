import { OBSERVER_EVENTS_LIMIT, SNAPSHOT_BOUNDS } from '../../domain/chats.js';

/**
 * The chat page's one script (served from /account/chats/chat.js; CSP `script-src 'self'`). It
 * issues the claim with a bounded snapshot of the shown messages (OBS-02: the newest 12, each cut
 * to 2,000 characters, the oldest dropped past 12,000 in all), shows the handle once, polls the
 * observer lane (OBS-11) into the progress list, never into the chat (OBS-13), and reloads the page
 * when the server reports the terminal message, which the server rendered (OBS-14, OBS-16). Binding
 * creation and removal are broadcast to the chat's other tabs, which reload (OBS-16).
 */
export const CHAT_SCRIPT = `'use strict';
const API = '/api/agi/agent-run-observer/bindings';
const BOUNDS = ${JSON.stringify(SNAPSHOT_BOUNDS)};
const LIMIT = ${OBSERVER_EVENTS_LIMIT.max};
const section = document.getElementById('observer');
const chatId = section.dataset.chat;
const statusLine = document.getElementById('observer-status');
const issueButton = document.getElementById('issue-claim');
const disconnectButton = document.getElementById('disconnect');
const claimBox = document.getElementById('claim');
const progress = document.getElementById('progress');
const channel = 'BroadcastChannel' in window ? new BroadcastChannel('helix-chat-observer') : null;
let binding = section.dataset.binding || '';
let afterSeq = 0;
let timer = null;
const TEXT = {
  none: 'No agent connected.',
  pending_claim: 'Waiting for your agent to claim the handle.',
  active: 'Agent connected: following its run.',
  revoked: 'Disconnected.',
  expired: 'The claim handle expired.',
};
function show(status) {
  statusLine.textContent = TEXT[status] || status;
  section.dataset.status = status;
  const open = status === 'pending_claim' || status === 'active';
  disconnectButton.hidden = !open;
  issueButton.hidden = open;
  if (status !== 'pending_claim') claimBox.hidden = true;
}
function snapshot() {
  const items = Array.from(document.querySelectorAll('#messages li.message')).slice(-BOUNDS.messages);
  const messages = items.map((li) => ({
    role: li.dataset.role,
    content: li.querySelector('.content').textContent.slice(0, BOUNDS.charsPerMessage),
  })).filter((m) => m.content.trim() !== '');
  let total = messages.reduce((n, m) => n + m.content.length, 0);
  while (total > BOUNDS.totalChars) total -= messages.shift().content.length;
  return messages;
}
function stop() { if (timer !== null) { clearTimeout(timer); timer = null; } }
function hasMessage(id) { return document.querySelector('#messages li[data-message-id="' + CSS.escape(id) + '"]') !== null; }
async function poll() {
  timer = null;
  if (binding === '') return;
  const res = await fetch(API + '/' + encodeURIComponent(binding) + '/events?after_seq=' + afterSeq + '&limit=' + LIMIT, { credentials: 'same-origin' });
  if (!res.ok) {
    const body = await res.json().catch(() => ({}));
    show(body.code === 'observer_binding_closed' ? 'revoked' : 'none');
    if (body.code !== 'observer_binding_closed') statusLine.textContent = 'The observer lane answered ' + res.status + '.';
    binding = '';
    return;
  }
  const page = await res.json();
  show(page.binding_status);
  for (const e of page.events) {
    const li = document.createElement('li');
    li.dataset.seq = String(e.seq);
    li.textContent = '#' + e.seq + ' ' + e.kind;
    progress.append(li);
  }
  afterSeq = page.next_after_seq;
  const terminal = page.terminal_message;
  if (terminal !== null && (terminal.appended || !hasMessage(terminal.message_id))) { location.reload(); return; }
  if (terminal !== null && !page.has_more) { statusLine.textContent = 'The run answered.'; return; }
  timer = setTimeout(poll, page.has_more ? 0 : 1000);
}
issueButton.addEventListener('click', async () => {
  issueButton.disabled = true;
  const res = await fetch(API, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ chat_session_id: chatId, context: { messages: snapshot() } }),
  });
  issueButton.disabled = false;
  const body = await res.json().catch(() => ({}));
  if (!res.ok) { statusLine.textContent = body.message || ('Could not connect (' + res.status + ').'); return; }
  binding = body.binding_ref;
  afterSeq = 0;
  progress.replaceChildren();
  document.getElementById('claim-handle').textContent = body.claim_handle;
  document.getElementById('claim-expiry').textContent = body.expires_at;
  claimBox.hidden = false;
  show('pending_claim');
  if (channel) channel.postMessage({ chat: chatId, change: 'created' });
  stop();
  poll();
});
disconnectButton.addEventListener('click', async () => {
  if (binding === '') return;
  stop();
  const res = await fetch(API + '/' + encodeURIComponent(binding), { method: 'DELETE', credentials: 'same-origin' });
  if (!res.ok) { statusLine.textContent = 'Disconnect failed (' + res.status + ').'; return; }
  binding = '';
  show('revoked');
  if (channel) channel.postMessage({ chat: chatId, change: 'removed' });
});
if (channel) channel.addEventListener('message', (event) => { if (event.data && event.data.chat === chatId) location.reload(); });
show(section.dataset.status === 'none' ? 'none' : section.dataset.status);
if (binding !== '') poll();
`;
