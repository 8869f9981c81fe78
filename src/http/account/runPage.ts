/**
 * One run in the console (issue 17): its status axes, budget, the terminal answer with its
 * citations, pending questions (each answerable by a same-origin form), contradictions, the
 * evidence bundle with every quoted span marked in its passage, and the turn timeline, which
 * /account/runs.js keeps live from the event stream. Every value from the store is escaped.
 */
import type { EventView, RunView } from '../../api/runView.js';
import type { AccountRunView } from '../../service/runs/viewAccountRun.js';
import { escapeHtml, layout } from './page.js';
import { highlightQuotes, quotesOf } from './quotedSpans.js';
import { consoleNav, runPagePath } from './runPages.js';

type Artifact = AccountRunView['evidence']['artifacts'][number];

/** How much of an event's data the timeline shows; the event stream and REST have all of it. */
const EVENT_SUMMARY_MAX = 200;

export const eventSummary = (data: unknown): string => {
  const json = JSON.stringify(data) ?? '';
  return json.length > EVENT_SUMMARY_MAX ? `${json.slice(0, EVENT_SUMMARY_MAX)}…` : json;
};

const row = (name: string, value: string, id?: string): string =>
  `<tr><th scope="row">${name}</th><td${id === undefined ? '' : ` id="${id}"`}>${escapeHtml(value)}</td></tr>`;

const statusSection = (run: RunView): string => `<h2>Status</h2>
<table id="status-axes">
${row('Lifecycle', run.lifecycle_status, 'lifecycle')}
${row('Completion', run.completion_status, 'completion')}
${row('Terminal authority', run.terminal_authority_status)}
${row('Next action', run.recommended_next_action)}
${row('Version', String(run.version))}
${row('Database scope', run.database_scope.join(', ') || 'none')}
</table>
<h2>Budget</h2>
<table id="budget">
${row('Steps', `${run.budget.steps_used} used of ${run.budget.max_steps} (${run.budget.steps_remaining} left)`)}
${row('Expires', run.budget.expires_at ?? 'never')}
</table>`;

const anchorOf = (artifacts: readonly Artifact[], ref: string): string => {
  const index = artifacts.findIndex((a) => a.ref === ref);
  return index < 0 ? `<code>${escapeHtml(ref)}</code>` : `<a href="#artifact-${index + 1}">[${index + 1}]</a>`;
};

/**
 * The evidence in the order the answer cites it, then the rest as admitted: an extractive answer's
 * "[1]" is its first supporting ref, so it is also [1] on the page.
 */
const inCitationOrder = (view: AccountRunView): Artifact[] => {
  const cited = view.run.latest_result?.supporting_evidence_refs ?? [];
  const rank = (a: Artifact) => {
    const index = cited.indexOf(a.ref);
    return index < 0 ? cited.length : index;
  };
  return [...view.evidence.artifacts].sort((a, b) => rank(a) - rank(b));
};

const answerSection = (view: AccountRunView): string => {
  const result = view.run.latest_result;
  if (result?.text === null || result?.text === undefined)
    return '<h2>Answer</h2><p id="no-answer" class="muted">No authorized answer yet.</p>';
  const citations = result.supporting_evidence_refs.map((ref) => anchorOf(inCitationOrder(view), ref)).join(' ');
  return `<h2>Answer</h2>
<blockquote id="answer"><p>${escapeHtml(result.text).replace(/\n/g, '<br>')}</p></blockquote>
<p id="citations">Cites: ${citations || 'nothing'}</p>`;
};

/** What the person answers with: a value, a confirmation (ATP-28) or, where allowed, a skip (ATP-27). */
const answerControls = (q: RunView['pending_questions'][number]): string => {
  if (q.kind === 'confirmation')
    return `<p>${escapeHtml(q.prompt)}</p>
<p><label>Feedback (optional)<br><input name="feedback" maxlength="4000" size="50"></label></p>
<p><button type="submit" name="decision" value="confirm">Confirm</button> <button type="submit" name="decision" value="decline">Decline</button></p>`;
  const skip =
    q.skippable === true ? ' <button type="submit" name="decision" value="skip" formnovalidate>Skip</button>' : '';
  return `<p><label>${escapeHtml(q.prompt)}<br><input name="value" required maxlength="4000" size="50"></label>
${q.answer_hint === undefined ? '' : `<span class="muted">(${escapeHtml(q.answer_hint)})</span>`}
<button type="submit">Answer</button>${skip}</p>`;
};

const questionForm = (run: RunView, idempotencyKey: string) => (q: RunView['pending_questions'][number]) =>
  `<li><form method="post" action="${runPagePath(run.run_id)}/answers">
<input type="hidden" name="question_id" value="${escapeHtml(q.question_id)}">
<input type="hidden" name="expected_version" value="${run.version}">
<input type="hidden" name="idempotency_key" value="${escapeHtml(idempotencyKey)}">
${answerControls(q)}</form></li>`;

const questionsSection = (run: RunView, idempotencyKey: string): string =>
  run.pending_questions.length === 0
    ? ''
    : `<h2>Pending questions</h2>
<p class="muted">Answering continues the run with your answer: one more turn, as your agent's continue would.</p>
<ul id="questions">${run.pending_questions.map(questionForm(run, idempotencyKey)).join('\n')}</ul>`;

const issuesSection = (view: AccountRunView): string => {
  const { run } = view;
  const contradictions = run.contradictions.map(
    (c) =>
      `<li>${escapeHtml(c.description)} ${c.refs.map((ref) => anchorOf(inCitationOrder(view), ref)).join(' ')}</li>`,
  );
  const unresolved = run.unresolved_requirements.map((r) => `<li><code>${escapeHtml(r)}</code></li>`);
  return `${contradictions.length === 0 ? '' : `<h2>Contradictions</h2><ul id="contradictions">${contradictions.join('')}</ul>`}
${unresolved.length === 0 ? '' : `<h2>Unresolved requirements</h2><ul id="unresolved">${unresolved.join('')}</ul>`}`;
};

/** The texts that quote a passage: the answer when it cites it, and every claim that cites it. */
const quotesFor = (view: AccountRunView, artifact: Artifact): string[] => {
  const result = view.run.latest_result;
  const texts = view.evidence.supported_claims.filter((c) => c.refs.includes(artifact.ref)).map((c) => c.claim);
  if (result?.text && result.supporting_evidence_refs.includes(artifact.ref)) texts.push(result.text);
  return quotesOf(texts);
};

const evidenceSection = (view: AccountRunView): string => {
  const items = inCitationOrder(view).map(
    (
      a,
      index,
    ) => `<li id="artifact-${index + 1}" class="artifact"><p><strong>[${index + 1}] ${escapeHtml(a.title ?? a.provenance.locator)}</strong>
<span class="muted">${escapeHtml(a.kind)} · ${escapeHtml(a.evidence_family)} · turn ${a.turn} · <code>${escapeHtml(a.provenance.locator)}</code></span></p>
<p class="passage">${highlightQuotes(a.excerpt, quotesFor(view, a))}</p></li>`,
  );
  return `<h2>Evidence</h2>
${items.length === 0 ? '<p class="muted">Nothing admitted yet.</p>' : `<p class="muted">Marked text is what the answer or a claim quotes.</p><ol id="evidence">${items.join('\n')}</ol>`}`;
};

export const timelineItem = (event: EventView): string =>
  `<li data-seq="${event.seq}"><strong>${escapeHtml(event.kind)}</strong> <span class="muted">#${event.seq} · ${escapeHtml(event.created_at ?? '')}</span> <code>${escapeHtml(eventSummary(event.data))}</code></li>`;

const timelineSection = (view: AccountRunView): string => {
  const last = view.events.at(-1)?.seq ?? 0;
  return `<h2>Timeline</h2>
<p id="live" class="muted" aria-live="polite">${view.events.length === 0 ? 'No events yet.' : ''}</p>
<ol id="timeline" data-stream="${runPagePath(view.run.run_id)}/events/stream" data-after="${last}">
${view.events.map(timelineItem).join('\n')}</ol>`;
};

export const runPage = (view: AccountRunView, idempotencyKey: string): string =>
  layout(
    view.run.objective.slice(0, 80),
    `${consoleNav}<p><a href="/account/runs">All runs</a></p>
<h1 id="objective">${escapeHtml(view.run.objective)}</h1>
<p class="muted">Run <code>${escapeHtml(view.run.run_id)}</code>, created ${escapeHtml(view.run.created_at ?? '')}</p>
${statusSection(view.run)}
${answerSection(view)}
${questionsSection(view.run, idempotencyKey)}
${issuesSection(view)}
${evidenceSection(view)}
${timelineSection(view)}
<script src="/account/runs.js"></script>`,
  );
