import type { RunWithCounts, StoredResult } from '../ledger/store.js';
import { runPagePath } from '../paths.js';
import { html } from './html.js';
import { layout } from './layout.js';
import { renderTags } from './tags.js';
import { readableTime } from './time.js';

/** GET /runs/{id} : one run's results, optionally only those with one status. */
export function renderRunPage(
  run: RunWithCounts,
  results: readonly StoredResult[],
  statuses: readonly string[],
  statusFilter: string | undefined,
): string {
  const shown =
    statusFilter === undefined ? results : results.filter((result) => result.status === statusFilter);
  const runPath = runPagePath(run.id);
  const filterLink = (label: string, href: string, current: boolean) =>
    html`<a href="${href}" class="${current ? 'current' : ''}">${label}</a>`;

  const content = html`<p><a href="/">← all runs</a></p>
<h1>${run.project} · ${run.framework}</h1>
<p>Run <code>${run.id}</code>, created ${readableTime(run.createdAt)}. ${renderTags(run.tags)}</p>
<nav>${filterLink(`all (${run.total})`, runPath, statusFilter === undefined)}${statuses.map((status) =>
    filterLink(
      `${status} (${run.counts[status] ?? 0})`,
      `${runPath}?status=${encodeURIComponent(status)}`,
      status === statusFilter,
    ),
  )}</nav>
<table>
<thead><tr><th>Suite</th><th>Test</th><th>Status</th><th>Duration</th></tr></thead>
<tbody>
${shown.map(
  (
    result,
  ) => html`<tr><td>${result.testSuite}</td><td>${result.testCase}</td><td class="status-${result.status}">${result.status}</td><td class="number">${result.duration}</td></tr>
`,
)}</tbody>
</table>`;
  return layout(`${run.project} run`, content);
}

export function renderRunNotFoundPage(runId: string): string {
  return layout('Run not found', html`<p><a href="/">← all runs</a></p><h1>No run ${runId}</h1>`);
}
