/**
 * The console's run list (issue 17): the signed-in account's runs, searched by status, objective
 * text and creation day, paged by the list's cursor. Server-rendered, a plain GET form, every value
 * from the store escaped. One run's page is src/http/account/runPage.ts.
 */
import type { RunListView } from '../../api/runListView.js';
import { LIFECYCLE_STATUSES } from '../../domain/statuses.js';
import { escapeHtml, layout } from './page.js';

export const RUNS_PAGE = '/account/runs';
export const runPagePath = (runId: string): string => `${RUNS_PAGE}/${encodeURIComponent(runId)}`;

/** The console's sections, on every run page: bindings, runs, rooms (whose pages link back here). */
export const consoleNav =
  '<nav aria-label="Console"><p><a href="/account">Agent bindings</a> · <a href="/account/runs">Runs</a> · <a href="/account/rooms">Rooms</a></p></nav>';

/** The search as the browser sent it, to fill the form again and carry into the next page's link. */
export type RunSearch = Readonly<Partial<Record<'q' | 'status' | 'from' | 'to', string>>>;

const statusOptions = (selected: string | undefined): string =>
  ['', ...LIFECYCLE_STATUSES]
    .map(
      (s) => `<option value="${s}"${s === (selected ?? '') ? ' selected' : ''}>${s === '' ? 'any status' : s}</option>`,
    )
    .join('');

const searchForm = (
  search: RunSearch,
): string => `<form method="get" action="${RUNS_PAGE}" role="search" aria-label="Search runs">
<p class="filters"><label>Objective contains<br><input name="q" maxlength="200" size="30" value="${escapeHtml(search.q ?? '')}"></label>
<label>Status<br><select name="status">${statusOptions(search.status)}</select></label>
<label>Created from<br><input type="date" name="from" value="${escapeHtml(search.from ?? '')}"></label>
<label>Created until<br><input type="date" name="to" value="${escapeHtml(search.to ?? '')}"></label>
<button type="submit">Search</button></p>
</form>`;

const nextLink = (search: RunSearch, cursor: string | null): string => {
  if (cursor === null) return '';
  const params = new URLSearchParams(Object.entries(search).filter((e): e is [string, string] => e[1] !== undefined));
  params.set('cursor', cursor);
  return `<p><a id="older" rel="next" href="${RUNS_PAGE}?${escapeHtml(params.toString())}">Older runs</a></p>`;
};

const rowsOf = (list: RunListView): string =>
  list.runs
    .map(
      (
        r,
      ) => `<tr data-run="${escapeHtml(r.run_id)}"><td><a href="${runPagePath(r.run_id)}">${escapeHtml(r.objective)}</a></td>
<td>${escapeHtml(r.lifecycle_status)}</td><td>${escapeHtml(r.completion_status)}</td><td>${r.steps_used}/${r.max_steps}</td>
<td>${r.pending_question_count}</td><td>${escapeHtml(r.created_at ?? '')}</td></tr>`,
    )
    .join('\n');

export const runsPage = (list: RunListView, search: RunSearch): string =>
  layout(
    'Runs',
    `${consoleNav}<h1>Runs</h1>
<p class="muted">Runs your agents started: through an API key of this account or a linked OAuth identity.</p>
${searchForm(search)}
${
  list.runs.length === 0
    ? '<p id="no-runs">No run matches.</p>'
    : `<table><caption class="muted">Newest first</caption><thead><tr><th scope="col">Objective</th><th scope="col">Status</th><th scope="col">Completion</th><th scope="col">Steps</th><th scope="col">Questions</th><th scope="col">Created</th></tr></thead>
<tbody id="runs">${rowsOf(list)}</tbody></table>`
}
${nextLink(search, list.next_cursor)}`,
  );

export const runErrorPage = (message: string): string =>
  layout('Runs', `${consoleNav}<h1>Runs</h1><p class="error" id="error" role="alert">${escapeHtml(message)}</p>`);
