/**
 * The console's Shared Live Room pages (D-09), server-rendered: plain forms that POST to the same
 * origin, no inline script (the account pages' CSP). Every value from the store is escaped. The
 * owner's source manager is src/http/account/roomSourcePages.ts.
 */
import type { InviteView, MemberView, RoomView } from '../../api/roomViews.js';
import { ROOM_ROLES, type RoomRole } from '../../domain/rooms.js';
import type { RoomWorkflowView } from '../../service/embodiment/roomWorkflows.js';
import type { RoomOverview } from '../../service/rooms/roomOverview.js';
import { escapeHtml, layout } from './page.js';
import { type SourcesPanel, sourcesSection } from './roomSourcePages.js';
import { workflowsSection } from './roomWorkflowPages.js';

/** The invite lifetimes the form offers (INVITE_TTL_MS bounds them: a minute to a week). */
export const INVITE_TTL_CHOICES = { '1h': 3_600_000, '1d': 86_400_000, '7d': 604_800_000 } as const;

const roomPath = (roomId: string): string => `/account/rooms/${encodeURIComponent(roomId)}`;
const nav =
  '<p><a href="/account">Account</a> · <a href="/account/runs">Runs</a> · <a href="/account/rooms">Rooms</a></p>';

const consentState = (room: RoomView): string =>
  room.membership.consent_current ? `v${room.consent_version} accepted` : `v${room.consent_version} not accepted`;

export const roomsPage = (rooms: readonly RoomView[], message?: string): string =>
  layout(
    'Rooms',
    `${nav}<h1>Shared Live Rooms</h1>
${message === undefined ? '' : `<p class="error">${escapeHtml(message)}</p>`}
<p class="muted">Rooms you are a member of. Your agents may bind runs to a room once you accept its current consent version.</p>
${
  rooms.length === 0
    ? '<p id="no-rooms">You are not a member of any room.</p>'
    : `<table><thead><tr><th>Room</th><th>Your role</th><th>Consent</th><th>Created</th></tr></thead><tbody id="rooms">
${rooms
  .map(
    (r) =>
      `<tr><td><a href="${roomPath(r.room_id)}">${escapeHtml(r.title)}</a></td><td>${r.membership.role}</td><td>${consentState(r)}</td><td>${escapeHtml(r.created_at ?? '')}</td></tr>`,
  )
  .join('\n')}</tbody></table>`
}
<h2>Create a room</h2>
<form method="post" action="/account/rooms">
<p><label>Title<br><input name="title" required maxlength="200" size="40"></label></p>
<p><button type="submit">Create room</button></p>
</form>`,
  );

const roleOptions = (selected: RoomRole): string =>
  ROOM_ROLES.map((role) => `<option${role === selected ? ' selected' : ''}>${role}</option>`).join('');

/** An owner's controls for one member; the creator and the viewer itself get none (the use cases refuse them). */
const memberControls = (roomId: string, member: MemberView, manageable: boolean): string => {
  if (!manageable) return '';
  const who = escapeHtml(member.account_id);
  const hidden = `<input type="hidden" name="account" value="${who}">`;
  return `<form method="post" action="${roomPath(roomId)}/members/role">${hidden}<select name="role" aria-label="Role of ${who}">${roleOptions(member.role)}</select> <button type="submit">Set role</button></form>
<form method="post" action="${roomPath(roomId)}/members/remove">${hidden}<button type="submit">Remove</button></form>`;
};

const membersTable = (view: RoomOverview, viewer: string): string => {
  const isOwner = view.room.membership.role === 'owner';
  const rows = view.members.map((m) => {
    const consent = m.accepted_consent_version === null ? 'none' : `v${m.accepted_consent_version}`;
    const controls = memberControls(
      view.room.room_id,
      m,
      isOwner && m.account_id !== viewer && m.account_id !== view.creator_account_id,
    );
    return `<tr data-account="${escapeHtml(m.account_id)}"><td><code>${escapeHtml(m.account_id)}</code></td><td class="role">${m.role}</td><td>${consent}</td><td>${controls}</td></tr>`;
  });
  return `<h2>Members</h2>
<table><thead><tr><th>Account</th><th>Role</th><th>Consent</th><th></th></tr></thead><tbody id="members">${rows.join('\n')}</tbody></table>`;
};

const consentSection = (view: RoomOverview): string => {
  const { consent, room } = view;
  const accept = room.membership.consent_current
    ? `<p id="consent-status">You accepted consent v${consent.version}.</p>`
    : `<p id="consent-status" class="error">You have not accepted consent v${consent.version}: your agents cannot bind runs to this room until you do.</p>
<form method="post" action="${roomPath(room.room_id)}/consent/accept"><input type="hidden" name="version" value="${consent.version}"><button type="submit">Accept consent v${consent.version}</button></form>`;
  return `<h2>Consent v${consent.version}</h2>
<blockquote id="consent-text" style="white-space:pre-wrap">${escapeHtml(consent.text)}</blockquote>
${accept}`;
};

const ownerForms = (roomId: string): string => `<h2>Invite a member</h2>
<p class="muted">The link is single use and expires; it is shown once. The invitee opens it signed in, joins, then accepts the consent.</p>
<form method="post" action="${roomPath(roomId)}/invites">
<label>Role <select name="role">${roleOptions('member')}</select></label>
<label>Valid for <select name="ttl">${Object.keys(INVITE_TTL_CHOICES)
  .map((ttl) => `<option${ttl === '1d' ? ' selected' : ''}>${ttl}</option>`)
  .join('')}</select></label>
<button type="submit">Create invite link</button>
</form>
<h2>Publish a consent version</h2>
<p class="muted">Every other member must accept the new version before binding runs again.</p>
<form method="post" action="${roomPath(roomId)}/consent">
<p><textarea name="text" rows="5" cols="70" required maxlength="4000" aria-label="Consent text"></textarea></p>
<p><button type="submit">Publish consent version</button></p>
</form>`;

/**
 * The owner's invites (D-09): status, role, issuer and user, never a token; a pending or expired
 * unused invite has a Revoke button (an expired one can still be revoked, to say so for good).
 */
const invitesSection = (roomId: string, invites: readonly InviteView[]): string => {
  if (invites.length === 0) return '<h2>Invites</h2>\n<p id="no-invites" class="muted">No invites yet.</p>';
  const rows = invites.map((i) => {
    const revocable = i.status === 'pending' || i.status === 'expired';
    const revoke = revocable
      ? `<form method="post" action="${roomPath(roomId)}/invites/${encodeURIComponent(i.invite_ref)}/revoke"><button type="submit">Revoke</button></form>`
      : '';
    const used =
      i.used_at === null ? '' : `${escapeHtml(i.used_at)} by <code>${escapeHtml(i.used_by ?? 'erased account')}</code>`;
    return `<tr data-invite="${escapeHtml(i.invite_ref)}"><td><code>${escapeHtml(i.invite_ref)}</code></td><td>${i.role}</td><td class="status">${i.status}</td><td><code>${escapeHtml(i.created_by)}</code></td><td>${escapeHtml(i.expires_at ?? '')}</td><td>${used}</td><td>${revoke}</td></tr>`;
  });
  return `<h2>Invites</h2>
<p class="muted">Newest first. An owner's unused invites are revoked when it is removed, leaves or stops being an owner.</p>
<table><thead><tr><th>Invite</th><th>Role</th><th>Status</th><th>Issued by</th><th>Expires</th><th>Used</th><th></th></tr></thead><tbody id="invites">${rows.join('\n')}</tbody></table>`;
};

export interface RoomPageExtras {
  /** The invite link just created: rendered in this answer only, never again. */
  readonly inviteLink?: string;
  /** The room's invites; owners only (listInvites refuses anyone else). */
  readonly invites?: readonly InviteView[];
  readonly message?: string;
  /** The owner's source manager (SRC-06); other roles get none. */
  readonly sources?: SourcesPanel;
  /** The room's open player workflows, with the manual override (MC-12). */
  readonly workflows?: readonly RoomWorkflowView[];
}

export const roomPage = (view: RoomOverview, viewer: string, extras: RoomPageExtras = {}): string => {
  const { room } = view;
  const invite =
    extras.inviteLink === undefined
      ? ''
      : `<p><strong>Invite link, shown once:</strong> <code id="invite-link">${escapeHtml(extras.inviteLink)}</code></p>`;
  return layout(
    room.title,
    `${nav}<h1>${escapeHtml(room.title)}</h1>
<p class="muted"><code>${escapeHtml(room.room_id)}</code> · ${room.status} · your role: <span id="my-role">${room.membership.role}</span></p>
${extras.message === undefined ? '' : `<p class="error">${escapeHtml(extras.message)}</p>`}
${invite}
${consentSection(view)}
${membersTable(view, viewer)}
${room.membership.role === 'owner' ? ownerForms(room.room_id) : ''}
${extras.invites === undefined ? '' : invitesSection(room.room_id, extras.invites)}
${extras.workflows === undefined ? '' : workflowsSection(room.room_id, extras.workflows)}
${extras.sources === undefined ? '' : sourcesSection(room.room_id, extras.sources)}`,
  );
};

/** The invite landing: the token arrives in the URL fragment (never sent to a server) and is POSTed by the page script. */
export const invitePage = (message?: string): string =>
  layout(
    'Join a room',
    `${nav}<h1>Join a room</h1>
${message === undefined ? '' : `<p class="error">${escapeHtml(message)}</p>`}
<p class="muted">Joining makes you a member with the role of the invite. You then read the room's consent text and accept it before your agents can bind runs.</p>
<form method="post" action="/account/rooms/invite">
<p><label>Invite token<br><input id="invite-token" name="token" required size="60" autocomplete="off"></label></p>
<p><button type="submit">Join the room</button></p>
</form>
<script src="/account/rooms/invite.js"></script>`,
  );

/** Moves the fragment's token into the form and out of the address bar and history. */
export const INVITE_SCRIPT = `'use strict';
const token = location.hash.slice(1);
if (/^hlxinv_[A-Za-z0-9_-]{43}$/.test(token)) {
  document.getElementById('invite-token').value = token;
  history.replaceState(null, '', location.pathname);
}
`;

export const roomErrorPage = (message: string): string =>
  layout('Rooms', `${nav}<h1>Shared Live Rooms</h1><p class="error" id="error">${escapeHtml(message)}</p>`);
