/**
 * The room page's "Player workflows" section (MC-12 manual override): the room's open workflows
 * and an Emergency Stop button for each one the viewer may stop. A plain same-origin form, no
 * script; every value from the store is escaped.
 */
import type { RoomWorkflowView } from '../../service/embodiment/roomWorkflows.js';
import { escapeHtml } from './page.js';

const stopPath = (roomId: string, workflowRef: string): string =>
  `/account/rooms/${encodeURIComponent(roomId)}/workflows/${encodeURIComponent(workflowRef)}/emergency-stop`;

const stopControl = (roomId: string, w: RoomWorkflowView): string => {
  if (!w.stoppable) return '';
  if (w.status === 'stopping') return '<span class="muted">stop sent, waiting for the player to stand still</span>';
  return `<form method="post" action="${stopPath(roomId, w.workflow_ref)}"><button type="submit" class="danger" aria-label="Emergency stop ${escapeHtml(w.workflow_ref)}">Emergency stop</button></form>`;
};

const workflowRow = (roomId: string, w: RoomWorkflowView): string =>
  `<tr data-workflow="${escapeHtml(w.workflow_ref)}"><td><code>${escapeHtml(w.workflow_ref)}</code></td><td><code>${escapeHtml(w.account_id)}</code></td><td class="status">${w.status}</td><td>${escapeHtml(w.updated_at)}</td><td>${stopControl(roomId, w)}</td></tr>`;

export const workflowsSection = (roomId: string, workflows: readonly RoomWorkflowView[]): string => {
  const body =
    workflows.length === 0
      ? '<p id="no-workflows">No player is acting in this room now.</p>'
      : `<table><thead><tr><th>Workflow</th><th>Started by</th><th>Status</th><th>Changed</th><th></th></tr></thead><tbody id="workflows">
${workflows.map((w) => workflowRow(roomId, w)).join('\n')}</tbody></table>`;
  return `<h2>Player workflows</h2>
<p class="muted">What agents are doing with players in this room. Emergency stop releases every control and clears the path goal at once; the workflow reads <em>stopped</em> only once the player stands still. Owners may stop any workflow, members their own.</p>
${body}`;
};
