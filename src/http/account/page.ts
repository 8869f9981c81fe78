import type { AccountApiKeyView } from '../../service/accounts/apiKeyViews.js';

/** The small account page: sign-in, then the agent bindings and API keys with a revoke button each. No inline script (CSP). */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export const layout = (title: string, body: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Helix</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}
h1{font-size:1.4rem}table{border-collapse:collapse;width:100%}td,th{padding:.4rem .5rem;border-bottom:1px solid #ddd;text-align:left;font-size:.9rem}
code{font-size:.8rem;word-break:break-all}button{cursor:pointer}.muted{color:#666}.error{color:#a00}button.danger{background:#a00;color:#fff;border:1px solid #700;padding:.3rem .7rem;font-weight:600}
.filters label{display:inline-block;margin:0 1rem .5rem 0;vertical-align:bottom}
</style></head><body>${body}</body></html>`;

export const signInPage = (message?: string): string =>
  layout(
    'Sign in',
    `<h1>Sign in to Helix</h1>
${message === undefined ? '' : `<p class="error">${escapeHtml(message)}</p>`}
<p class="muted">Use a one-time sign-in link from <code>helix accounts login-link</code>, or your account id and password.</p>
<form method="post" action="/account/sign-in">
<p><label>Account id<br><input name="account" autocomplete="username" required size="40"></label></p>
<p><label>Password<br><input name="password" type="password" autocomplete="current-password" required size="40"></label></p>
<p><button type="submit">Sign in</button></p>
</form>`,
  );

/**
 * What opening a sign-in link shows: whose account it signs in to, and whose session it would end.
 * Only the button (a same-origin form post) spends the code, so a link opened by another site
 * signs nobody in (login CSRF, OBS-18).
 */
export const confirmSignInPage = (code: string, linkAccount: string, signedInAs: string | undefined): string =>
  layout(
    'Sign in',
    `<h1>Sign in as ${escapeHtml(linkAccount)}?</h1>
${signedInAs === undefined ? '' : `<p class="error">This browser is signed in as ${escapeHtml(signedInAs)}; continuing signs it out.</p>`}
<p class="muted">Continue only if you asked for this sign-in link yourself. A link someone else sent you signs you in to their account.</p>
<form method="post" action="/account/sign-in">
<input type="hidden" name="code" value="${escapeHtml(code)}">
<p><button type="submit">Sign in as ${escapeHtml(linkAccount)}</button> <a href="/account">Cancel</a></p>
</form>`,
  );

/** A refused sign-in or sign-out form (another origin): nothing changed. */
export const refusedFormPage = (message: string): string =>
  layout(
    'Refused',
    `<h1>Nothing changed</h1><p class="error">${escapeHtml(message)}</p><p><a href="/account">Back to your account</a></p>`,
  );

/** The form that revokes one of the account's keys: a same-origin post (src/http/account/sameOrigin.ts). */
export const apiKeyRevokePath = (keyId: string): string => `/account/keys/${encodeURIComponent(keyId)}/revoke`;

const apiKeyRow = (key: AccountApiKeyView): string => {
  const status = key.revokedAt === null ? 'active' : `revoked ${key.revokedAt}`;
  const action =
    key.revokedAt === null
      ? `<form method="post" action="${escapeHtml(apiKeyRevokePath(key.keyId))}"><button type="submit">Revoke key</button></form>`
      : '';
  return `<tr><td><code>${escapeHtml(key.keyId)}</code></td><td><code>${escapeHtml(key.displayPrefix)}</code></td><td>${escapeHtml(key.label ?? '')}</td><td>${escapeHtml(key.scopes.join(' '))}</td><td>${escapeHtml(key.createdAt)}</td><td>${escapeHtml(status)}</td><td>${action}</td></tr>`;
};

/**
 * The account's two kinds of standing agent credential, each with its own revoke: an agent
 * binding admits one OAuth identity's tokens, an `hlx_` key admits whoever holds the key. Neither
 * revoke stops the other (docs/auth.md), so the page says so next to each.
 */
export const accountPage = (displayName: string, keys: readonly AccountApiKeyView[]): string =>
  layout(
    'Agent bindings',
    `<h1>Agent bindings of ${escapeHtml(displayName)}</h1>
<p class="muted">Each binding lets an agent's OAuth tokens (one issuer, tenant, provider and subject) act for this account.
Revoking a binding stops that agent's OAuth tokens: their next request fails. It does not stop this account's API keys,
which are revoked in the API keys list below. Revoke provider-side tokens separately if you need to.</p>
<p id="status" class="muted">Loading…</p>
<table><thead><tr><th>Binding</th><th>Issuer</th><th>Provider</th><th>Status</th><th>Created</th><th></th></tr></thead><tbody id="bindings"></tbody></table>
<h2>API keys</h2>
<p class="muted">The <code>hlx_</code> keys the operator issued for this account. A key acts for this account while the account is active, whatever its bindings;
revoking a key here stops it for good: its next request fails. The key itself is never shown again.</p>
<table><thead><tr><th>Key</th><th>Starts with</th><th>Label</th><th>Scopes</th><th>Created</th><th>Status</th><th></th></tr></thead><tbody id="keys">${
      keys.length === 0 ? '<tr><td colspan="7" class="muted">No API keys.</td></tr>' : keys.map(apiKeyRow).join('')
    }</tbody></table>
<p><a href="/account/runs">Runs</a> · <a href="/account/chats">Chats</a> · <a href="/account/rooms">Shared Live Rooms</a></p>
<form method="post" action="/account/sign-out"><p><button type="submit">Sign out</button></p></form>
<script src="/account/bindings.js"></script>`,
  );

/** Lists bindings from the JSON API and revokes with DELETE; same origin, the session cookie authenticates. */
export const BINDINGS_SCRIPT = `'use strict';
const API = '/api/account/session/agent-bindings';
const statusLine = document.getElementById('status');
const rows = document.getElementById('bindings');
const cell = (text) => { const td = document.createElement('td'); td.textContent = text; return td; };
async function load() {
  const res = await fetch(API, { credentials: 'same-origin' });
  if (!res.ok) { statusLine.textContent = 'Could not load bindings (' + res.status + ').'; return; }
  const data = await res.json();
  rows.replaceChildren();
  statusLine.textContent = data.oauth_ready ? 'At least one binding is active.' : 'No active binding.';
  for (const b of data.bindings) {
    const tr = document.createElement('tr');
    const ref = document.createElement('td'); const code = document.createElement('code'); code.textContent = b.binding_ref; ref.append(code);
    tr.append(ref, cell(b.issuer), cell(b.provider), cell(b.status), cell(b.created_at));
    const action = document.createElement('td');
    if (b.status === 'active') {
      const button = document.createElement('button'); button.textContent = 'Revoke';
      button.addEventListener('click', async () => {
        button.disabled = true;
        const r = await fetch(API + '/' + encodeURIComponent(b.binding_ref), { method: 'DELETE', credentials: 'same-origin' });
        if (!r.ok) statusLine.textContent = 'Revoke failed (' + r.status + ').';
        await load();
      });
      action.append(button);
    }
    tr.append(action);
    rows.append(tr);
  }
}
load();
`;
