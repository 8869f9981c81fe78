import { EVENT_KINDS } from '../../domain/events.js';

/**
 * The run page's one script (/account/runs.js; the CSP admits same-origin scripts and connections
 * only): it follows the run's event stream from the last event the page shows and appends each new
 * event to the timeline as text, exactly as the server renders one (timelineItem in runPage.ts).
 * EventSource resumes with Last-Event-ID after a dropped connection; the `end` event closes it.
 */
export const RUN_PAGE_SCRIPT = `'use strict';
const timeline = document.getElementById('timeline');
const live = document.getElementById('live');
const KINDS = ${JSON.stringify(EVENT_KINDS)};
const SUMMARY_MAX = 200;
const summary = (data) => { const json = JSON.stringify(data) ?? ''; return json.length > SUMMARY_MAX ? json.slice(0, SUMMARY_MAX) + '…' : json; };
const span = (tag, text, className) => { const el = document.createElement(tag); el.textContent = text; if (className) el.className = className; return el; };
const changed = () => {
  live.replaceChildren('The run changed: ', Object.assign(document.createElement('a'), { href: location.pathname, textContent: 'reload to see its new state' }), '.');
};
if (timeline !== null && live !== null) {
  const source = new EventSource(timeline.dataset.stream + '?after_seq=' + encodeURIComponent(timeline.dataset.after));
  const append = (message) => {
    const event = JSON.parse(message.data);
    if (timeline.querySelector('li[data-seq="' + Number(event.seq) + '"]') !== null) return;
    const item = document.createElement('li');
    item.dataset.seq = String(event.seq);
    item.append(span('strong', event.kind), ' ', span('span', '#' + event.seq + ' · ' + (event.created_at ?? ''), 'muted'), ' ', span('code', summary(event.data)));
    timeline.append(item);
    changed();
  };
  for (const kind of KINDS) source.addEventListener(kind, append);
  source.addEventListener('end', () => { source.close(); if (live.textContent === '') live.textContent = 'The run has ended.'; });
}
`;
