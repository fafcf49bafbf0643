import { type RunState, runState } from '../ledger/run-state.js';
import type { RunWithCounts } from '../ledger/store.js';
import { paths, runPagePath, runsPagePath } from '../paths.js';
import { statusBar } from './charts.js';
import { formatCount, formatDuration } from './format.js';
import { html, type SafeHtml } from './html.js';
import { countsLine, createdAt, layout, stateBadge, tagList } from './layout.js';

export const RUNS_PER_PAGE = 50;

export interface RunsFilter {
  project?: string;
  framework?: string;
  tag?: string;
}

/** What the filters offer: a short list each (the tags of recent runs, not every tag ever). */
export interface RunsChoices {
  project: readonly string[];
  framework: readonly string[];
  tag: readonly string[];
}

export interface RunsPageInput {
  /** The runs on this page, newest first, with their counts. */
  runs: readonly RunWithCounts[];
  /** How many runs match the filter, over all pages. */
  matching: number;
  /** Whether the server holds any run at all (else the page says how to send some). */
  anyRuns: boolean;
  choices: RunsChoices;
  filter: RunsFilter;
  /** 1-based, already in range. */
  page: number;
  /** A run never completed that received nothing for this long is abandoned. */
  abandonedAfterMs: number;
  now: number;
}

/** Which page to show: `requested` brought into range for `matching` runs. */
export function runsPageNumber(requested: number, matching: number): number {
  const pageCount = Math.max(1, Math.ceil(matching / RUNS_PER_PAGE));
  return Math.min(Math.max(1, Math.trunc(requested) || 1), pageCount);
}

/**
 * GET / : the runs, newest first, RUNS_PER_PAGE a page, narrowed by project, framework
 * and tag. The database reads only the runs on the page (with counts kept as results
 * arrive), so the page costs the same with 10 runs or 100,000.
 */
export function renderRunsPage({
  runs: shown,
  matching: matchingCount,
  anyRuns,
  choices,
  filter,
  page,
  abandonedAfterMs,
  now,
}: RunsPageInput): string {
  const pageCount = Math.max(1, Math.ceil(matchingCount / RUNS_PER_PAGE));
  const current = page;
  const first = (current - 1) * RUNS_PER_PAGE;

  const content = !anyRuns
    ? html`<h1>Runs</h1><p>No runs yet. Point a reporter at this server and run your tests.</p>`
    : html`<h1>Runs</h1>
${filterForm(choices, filter)}
<p class="muted" id="runs-summary">${
        matchingCount === 0
          ? 'No runs match these filters.'
          : `Runs ${formatCount(first + 1)}–${formatCount(first + shown.length)} of ${formatCount(matchingCount)}, newest first.`
      }</p>
<ol class="cards">
${shown.map((run) => runItem(run, runState(run, now, abandonedAfterMs), now))}</ol>
${pager(filter, current, pageCount)}`;
  return layout('Runs', content);
}

function runItem(run: RunWithCounts, state: RunState, now: number): SafeHtml {
  return html`<li class="card run" data-run-id="${run.id}" data-state="${state}">
<div class="line"><a class="name" href="${runPagePath(run.id)}"><strong>${run.project}</strong></a>${stateBadge(state)}<span>${run.framework}</span><span>${tagList(run.tags)}</span></div>
${statusBar(run.counts, run.total)}
<div class="line"><span class="counts">${countsLine(run.counts)}</span><span class="duration" title="${run.totalDuration} ms">${formatDuration(run.totalDuration)}</span><span>${createdAt(run.createdAt, now)}</span></div>
</li>
`;
}

function filterForm(choices: RunsChoices, filter: RunsFilter): SafeHtml {
  const select = (name: keyof RunsFilter, label: string) => {
    const selected = filter[name];
    const options =
      selected === undefined || choices[name].includes(selected)
        ? choices[name]
        : [selected, ...choices[name]];
    return html`<label>${label}<select name="${name}"><option value="">all</option>${options.map(
      (option) =>
        html`<option value="${option}"${option === selected ? html` selected` : ''}>${option}</option>`,
    )}</select></label>`;
  };
  const filtered = filter.project !== undefined || filter.framework !== undefined || filter.tag !== undefined;
  return html`<form class="filters" method="get" action="${paths.runsPage}">${select('project', 'Project')}${select('framework', 'Framework')}${select('tag', 'Tag')}<button type="submit">Filter</button>${filtered ? html`<a href="${runsPagePath()}">clear</a>` : ''}</form>`;
}

function pager(filter: RunsFilter, current: number, pageCount: number): SafeHtml {
  if (pageCount === 1) return html``;
  const link = (page: number, label: string) =>
    html`<a href="${runsPagePath({ ...filter, page })}">${label}</a>`;
  return html`<nav class="pager"><span>${current > 1 ? link(current - 1, '← newer') : ''}</span><span class="muted">page ${current} of ${pageCount}</span><span>${current < pageCount ? link(current + 1, 'older →') : ''}</span></nav>`;
}
