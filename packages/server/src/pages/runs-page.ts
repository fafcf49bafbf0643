import type { RunWithCounts } from '../ledger/store.js';
import { runPagePath } from '../paths.js';
import { html } from './html.js';
import { layout } from './layout.js';
import { renderTags } from './tags.js';
import { readableTime } from './time.js';

/** GET / : every run, newest first, with its counts by status. */
export function renderRunsPage(runs: readonly RunWithCounts[], statuses: readonly string[]): string {
  const content =
    runs.length === 0
      ? html`<p>No runs yet. Point a reporter at this server and run your tests.</p>`
      : html`<table>
<thead><tr><th>Created</th><th>Project</th><th>Framework</th><th>Tags</th>${statuses.map(
          (status) => html`<th>${status}</th>`,
        )}<th>Total</th><th>Duration</th></tr></thead>
<tbody>
${runs.map(
  (run) => html`<tr>
<td class="nowrap">${readableTime(run.createdAt)}</td>
<td><a href="${runPagePath(run.id)}">${run.project}</a></td>
<td>${run.framework}</td>
<td>${renderTags(run.tags)}</td>
${statuses.map((status) => html`<td class="number status-${status}">${run.counts[status] ?? 0}</td>`)}
<td class="number">${run.total}</td>
<td class="number">${run.totalDuration}</td>
</tr>
`,
)}</tbody>
</table>`;
  return layout('Runs', html`<h1>Runs</h1>\n${content}`);
}
