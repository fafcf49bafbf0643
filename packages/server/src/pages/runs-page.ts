import { type RunState, runState } from '../ledger/run-state.js';
import type { RunWithCounts } from '../ledger/store.js';
import { paths, runPagePath, runsPagePath } from '../paths.js';
import { statusBar } from './charts.js';
import { formatCount } from './format.js';
import { html, type SafeHtml } from './html.js';
import {
  countsLine,
  createdAt,
  failuresBadge,
  pageParts,
  runDurationLine,
  stateBadge,
  tagList,
} from './layout.js';

export const RUNS_PER_PAGE = 50;

export interface RunsFilter {
  project?: string;
  framework?: string;
  tag?: string;
  /** A branch name, or a pattern with `*`. */
  branch?: string;
}

/** What the filters offer: a short list each (the tags of recent runs, not every tag ever). */
export interface RunsChoices {
  project: readonly string[];
  framework: readonly string[];
  tag: readonly string[];
  /** Branches of recent runs: suggestions, since any name or pattern may be typed. */
  branch: readonly string[];
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
  /** 1-based, already in range (runsPageNumber). */
  page: number;
  /** A run never completed that received nothing for this long is abandoned. */
  abandonedAfterMs: number;
  now: number;
  /** This server's address as the browser reached it, for the empty state's instructions. */
  serverUrl: string;
}

/** Which page to show: `requested` brought into range for `matching` runs. */
export function runsPageNumber(requested: number, matching: number): number {
  const pageCount = Math.max(1, Math.ceil(matching / RUNS_PER_PAGE));
  return Math.min(Math.max(1, Math.trunc(requested) || 1), pageCount);
}

/**
 * GET / : the runs, newest first, RUNS_PER_PAGE a page, narrowed by project, framework
 * and tag. The database reads only the runs on the page (with counts kept as results
 * arrive), so the page costs the same with 10 runs or 100,000. In parts, for streamPage:
 * the filters' choices are rendered an option at a time.
 */
export function renderRunsPage(input: RunsPageInput): Iterable<SafeHtml> {
  return pageParts('Runs', runsContent(input));
}

function* runsContent({
  runs: shown,
  matching,
  anyRuns,
  choices,
  filter,
  page: current,
  abandonedAfterMs,
  now,
  serverUrl,
}: RunsPageInput): Generator<SafeHtml> {
  const pageCount = Math.max(1, Math.ceil(matching / RUNS_PER_PAGE));
  const first = (current - 1) * RUNS_PER_PAGE;

  if (!anyRuns) {
    yield html`<h1>Runs</h1>${emptyState(serverUrl)}`;
    return;
  }
  yield html`<h1>Runs</h1>
`;
  yield* filterForm(choices, filter);
  yield html`
<p class="muted" id="runs-summary">${
    matching === 0
      ? 'No runs match these filters.'
      : `Runs ${formatCount(first + 1)}–${formatCount(first + shown.length)} of ${formatCount(matching)}, newest first.`
  }</p>
<ol class="cards">
`;
  for (const run of shown) yield runItem(run, runState(run, now, abandonedAfterMs), now);
  yield html`</ol>
${pager(filter, current, pageCount)}`;
}

function runItem(run: RunWithCounts, state: RunState, now: number): SafeHtml {
  const failing = (run.counts.failed ?? 0) > 0;
  return html`<li class="card run${failing ? ' has-failures' : ''}" data-run-id="${run.id}" data-state="${state}">
<div class="line"><a class="name" href="${runPagePath(run.id)}"><strong>${run.project}</strong></a>${stateBadge(state, run.quarantined)}${failuresBadge(run.counts, run.quarantined)}<span>${run.framework}</span><span>${tagList(run.tags)}</span></div>
${statusBar(run.counts, run.total)}
<div class="line"><span class="counts">${countsLine(run.counts)}</span><span>${runDurationLine(run)}</span><span>${createdAt(run.createdAt, now)}</span></div>
</li>
`;
}

/** What to set so that a reporter reports here: the names are core's options (TESTRUN_BASE_URL…). */
function emptyState(serverUrl: string): SafeHtml {
  return html`<section id="empty-state"><p>No runs yet. To report here, run your tests with a testrun reporter and these variables set:</p>
<pre><code>TESTRUN_BASE_URL=${serverUrl}
TESTRUN_API_KEY=<var>the API key this server was started with</var></code></pre>
<p><code>testrun serve</code> printed both when it started (<code>--api-key</code> sets the key). <code>TESTRUN_PROJECT</code> names the project (by default the package name) and <code>TESTRUN_TAGS</code> adds tags; in CI the branch, commit and build are added as tags. Each run appears here as its first results arrive.</p></section>`;
}

function* filterForm(choices: RunsChoices, filter: RunsFilter): Generator<SafeHtml> {
  function* select(name: keyof RunsFilter, label: string): Generator<SafeHtml> {
    const selected = filter[name];
    const options =
      selected === undefined || choices[name].includes(selected)
        ? choices[name]
        : [selected, ...choices[name]];
    yield html`<label>${label}<select name="${name}"><option value="">all</option>`;
    for (const option of options) {
      yield html`<option value="${option}"${option === selected ? html` selected` : ''}>${option}</option>`;
    }
    yield html`</select></label>`;
  }
  const filtered =
    filter.project !== undefined ||
    filter.framework !== undefined ||
    filter.tag !== undefined ||
    filter.branch !== undefined;
  yield html`<form class="filters" method="get" action="${paths.runsPage}">`;
  yield* select('project', 'Project');
  yield* select('framework', 'Framework');
  yield* select('tag', 'Tag');
  // A text box with the recent branches as suggestions (a datalist, no script): pick one, or
  // type any branch, or a pattern such as `release/*`.
  yield html`<label>Branch<input name="branch" list="branch-choices" value="${filter.branch ?? ''}" placeholder="any, or release/*" autocomplete="off"></label><datalist id="branch-choices">`;
  for (const branch of choices.branch) yield html`<option value="${branch}"></option>`;
  yield html`</datalist>`;
  yield html`<button type="submit">Filter</button>${filtered ? html`<a href="${runsPagePath()}">clear</a>` : ''}</form>`;
}

function pager(filter: RunsFilter, current: number, pageCount: number): SafeHtml {
  if (pageCount === 1) return html``;
  const link = (page: number, label: string) =>
    html`<a href="${runsPagePath({ ...filter, page })}">${label}</a>`;
  return html`<nav class="pager"><span>${current > 1 ? link(current - 1, '← newer') : ''}</span><span class="muted">page ${current} of ${pageCount}</span><span>${current < pageCount ? link(current + 1, 'older →') : ''}</span></nav>`;
}
