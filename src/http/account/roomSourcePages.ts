/**
 * The console's source manager (SRC-06) on the room page and the credential claim page (SRC-04,
 * SRC-05). Server-rendered like the other room pages; the claim page's one script is served from
 * this origin (the pages' CSP allows no inline script). Every value from the store is escaped.
 */
import type { SourceView } from '../../api/roomSourceViews.js';
import { escapeHtml, layout } from './page.js';

/** The source lifetimes the create form offers (SOURCE_LIMITS.ttlMs bounds them: a minute to 90 days). */
export const SOURCE_TTL_CHOICES = {
  '1h': 3_600_000,
  '1d': 86_400_000,
  '7d': 604_800_000,
  '30d': 2_592_000_000,
  '90d': 7_776_000_000,
} as const;

/** What the owner's view of the room page shows about sources. */
export interface SourcesPanel {
  readonly sources: readonly SourceView[];
  /** The `domain_adapter` identities this deployment admits sources for (the registry's enabled profiles). */
  readonly adapters: readonly string[];
  /** A claim link just made (creation or rotation): rendered in this answer only, never again. */
  readonly claimLink?: string;
}

const sourcePath = (roomId: string, sourceId: string): string =>
  `/account/rooms/${encodeURIComponent(roomId)}/sources/${encodeURIComponent(sourceId)}`;

const sourceControls = (source: SourceView): string => {
  if (source.status !== 'active') return '';
  const path = sourcePath(source.room_id, source.source_id);
  const label = escapeHtml(source.source_label);
  return `<form method="post" action="${path}/rotate"><button type="submit" aria-label="Rotate ${label}">Rotate credential</button></form>
<form method="post" action="${path}/revoke"><button type="submit" aria-label="Revoke ${label}">Revoke</button></form>`;
};

const sourceRow = (s: SourceView): string =>
  `<tr data-source="${escapeHtml(s.source_id)}"><td>${escapeHtml(s.source_label)}<br><code>${escapeHtml(s.source_id)}</code></td><td><code>${escapeHtml(s.domain_adapter)}</code><br><code>${escapeHtml(s.world_id)}</code></td><td class="status">${s.status}</td><td class="credential">${s.credential_status}</td><td>${escapeHtml(s.expires_at ?? '')}</td><td>${sourceControls(s)}</td></tr>`;

const createForm = (roomId: string, adapters: readonly string[]): string => `<h3>Create a source</h3>
<form method="post" action="/account/rooms/${encodeURIComponent(roomId)}/sources">
<label>Adapter <select name="domain_adapter">${adapters.map((a) => `<option>${escapeHtml(a)}</option>`).join('')}</select></label>
<label>World id <input name="world_id" required maxlength="200" size="28" placeholder="minecraft:home-server"></label>
<label>Label <input name="source_label" required maxlength="120" size="20"></label>
<label>Lifetime <select name="ttl">${Object.keys(SOURCE_TTL_CHOICES)
  .map((ttl) => `<option${ttl === '7d' ? ' selected' : ''}>${ttl}</option>`)
  .join('')}</select></label>
<button type="submit">Create source</button>
</form>`;

/** The owner's "Sources" section of the room page: list, rotate, revoke, create. Never a credential. */
export const sourcesSection = (roomId: string, panel: SourcesPanel): string => {
  const claim =
    panel.claimLink === undefined
      ? ''
      : `<p><strong>Claim link, shown once:</strong> <a id="claim-link" href="${escapeHtml(panel.claimLink)}">${escapeHtml(panel.claimLink)}</a></p>`;
  const table =
    panel.sources.length === 0
      ? '<p id="no-sources">This room has no sources.</p>'
      : `<table><thead><tr><th>Source</th><th>Adapter and world</th><th>Status</th><th>Credential</th><th>Expires</th><th></th></tr></thead><tbody id="sources">
${panel.sources.map(sourceRow).join('\n')}</tbody></table>`;
  return `<h2>Sources</h2>
<p class="muted">Read-only environment sources (a game world, for example) report observations to this room through a connector. Creating a source, or rotating its credential, gives a claim link that is shown once: open it signed in to see the source bearer and the connector configuration, once. Rotating stops the current bearer at once; revoking ends the source for good.</p>
${claim}
${table}
${createForm(roomId, panel.adapters)}`;
};

/** SRC-04: the claim landing. The handle arrives in the URL fragment, which no browser sends; the script claims it. */
export const claimPage = (): string =>
  layout(
    'Claim a source credential',
    `<p><a href="/account">Account</a> · <a href="/account/rooms">Rooms</a></p><h1>Claim a source credential</h1>
<p id="claim-status" class="muted">Claiming…</p>
<div id="claimed" hidden>
<p><strong>Source bearer, shown once:</strong> <code id="source-bearer"></code></p>
<p>Connector configuration, shown once: save it in a file only you can read (<code>chmod 600</code>) and name it in <code>HELIX_CONNECTOR_CONFIG</code> (docs/connectors.md).</p>
<pre id="connector-config" style="white-space:pre-wrap;background:#f4f4f4;padding:.6rem"></pre>
<p><a id="room-link" href="/account/rooms">Back to the room</a></p>
</div>
<script src="/account/room-sources/claim.js"></script>`,
  );

/**
 * Takes the handle out of the address bar and the history entry first, then claims it once over the
 * same-origin JSON route and shows the bearer with the connector's configuration file (the fields
 * docs/connectors.md "Configuration" reads). A reload finds no handle: nothing is shown again.
 */
export const CLAIM_SCRIPT = `'use strict';
const API = '/api/agi/realtime/room-source-credential-deliveries/claim';
const statusLine = document.getElementById('claim-status');
const handle = location.hash.slice(1);
history.replaceState(null, '', location.pathname);
async function claim() {
  if (!/^hlxdlv_[A-Za-z0-9_-]{43}$/.test(handle)) {
    statusLine.textContent = 'Nothing to claim: a source credential is shown only once. For a new one, rotate the source on its room page.';
    return;
  }
  const res = await fetch(API, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ claim_handle: handle }),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    statusLine.textContent = res.status === 404
      ? 'This credential delivery was not found: it is already claimed or expired. For a new one, rotate the source on its room page.'
      : data.code === 'feature_not_enabled' && typeof data.feature === 'string'
        ? 'The claim was refused: your account does not have the "' + data.feature + '" feature. Ask the operator to turn it on (helix accounts policy set --feature ' + data.feature + '=on), then open this link again.'
        : 'The claim was refused (' + res.status + '): ' + (data.message || 'unknown error');
    return;
  }
  const p = data.plugin_config;
  const config = { base_url: location.origin, binding_id: p.binding_id, world_id: p.world_id, source_bearer: data.token_value };
  // M-02: the action lane's own credential, only for an adapter with an action lane.
  if (data.action_token_value) config.action_bearer = data.action_token_value;
  document.getElementById('source-bearer').textContent = data.token_value;
  document.getElementById('connector-config').textContent = JSON.stringify(config, null, 2);
  document.getElementById('room-link').href = '/account/rooms/' + encodeURIComponent(p.room_id);
  document.getElementById('claimed').hidden = false;
  statusLine.textContent = 'Claimed. Copy the bearer and the configuration now: they are not shown again.';
}
claim().catch(() => { statusLine.textContent = 'The claim failed: network error.'; });
`;
