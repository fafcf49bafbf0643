import { type RunState, runState } from '../ledger/run-state.js';
import type { RunWithCounts, StoredResult } from '../ledger/store.js';
import { flakyPagePath, quarantinePagePath, runPagePath, runsPagePath } from '../paths.js';
import type { ShardTime } from '../plans/shard-times.js';
import { attachmentsBlock, type RunFiles } from './attachments-block.js';
import { statusBar } from './charts.js';
import { failureDetailsBlock, failuresByMessage } from './failure-details.js';
import { formatCount, formatDuration } from './format.js';
import { html, type SafeHtml } from './html.js';
import {
  countsLine,
  createdAt,
  failuresBadge,
  layout,
  pageParts,
  QUARANTINED_MARK,
  runDurationLine,
  stateBadge,
  statusClass,
  tagList,
  testLink,
} from './layout.js';
import { shardTable } from './shard-table.js';
import { testAnchor } from './test-anchor.js';

/** How many tests the "Slowest tests" table lists. */
export const SLOWEST_TESTS = 10;

/** Statuses of tests that did not run: their duration says nothing, so they are never among the slowest. */
const NOT_RUN: ReadonlySet<string> = new Set(['skipped', 'todo']);

/** Results the run page lists at most at once; the rest are on further pages. */
export const RESULTS_PER_PAGE = 1000;

/**
 * A run whose results the database pages: `results` are then one page of the narrowed
 * results, and what spans every page is counted and picked out by the database.
 */
export interface PagedResults {
  /** Narrowed results over all pages. */
  matching: number;
  /** The narrowed failed results (at most RESULTS_PER_PAGE of them), and how many there are. */
  failed: readonly StoredResult[];
  failedCount: number;
  /** The SLOWEST_TESTS slowest narrowed results that ran. */
  slowest: readonly StoredResult[];
  /** 1-based, in range. */
  page: number;
  pageCount: number;
}

export interface RunPageInput {
  run: RunWithCounts;
  /** The run's results, or with `paged` one page of them. */
  results: readonly StoredResult[];
  /** The run's files, where the server keeps them: shown under the failed tests. */
  files?: RunFiles | undefined;
  paged?: PagedResults | undefined;
  /** Only results whose suite or test name contains this, ignoring case. */
  search: string | undefined;
  /** Only results with this status. */
  status: string | undefined;
  /** A run never completed that received nothing for this long is abandoned. */
  abandonedAfterMs: number;
  now: number;
  /** The shards its results came from, with their planned and actual time (none: not sharded). */
  shards?: readonly ShardTime[] | undefined;
}

/**
 * GET /runs/{id} : the run's bar and counts, its failed tests first, its slowest tests that ran,
 * then every test grouped by suite (suites with failures first and unfolded). The page comes in
 * parts, a row or a suite each, for streamPage: a run of 100,000 results is rendered as it is sent.
 */
export function renderRunPage(input: RunPageInput): Iterable<SafeHtml> {
  return pageParts(`${input.run.project} run`, runPageContent(input));
}

function* runPageContent({
  run,
  results,
  files,
  paged,
  search,
  status,
  abandonedAfterMs,
  now,
  shards = [],
}: RunPageInput): Generator<SafeHtml> {
  const state = runState(run, now, abandonedAfterMs);
  const needle = search?.toLowerCase();
  const narrowed = status !== undefined || search !== undefined;
  const statuses = Object.keys(run.counts);
  // A filter per status the run holds (and the one chosen): the service counts every status it
  // accepts, but a `todo (0)` link leads nowhere, and reporters send todo tests as skipped by default.
  const filters = statuses.filter((s) => (run.counts[s] ?? 0) > 0 || s === status);
  const sorted: SortedResults = { shown: 0, failed: [], slowest: [], suites: new Map() };
  yield* sortOut(
    results,
    (result) =>
      (status === undefined || result.status === status) &&
      (needle === undefined ||
        result.testSuite.toLowerCase().includes(needle) ||
        result.testCase.toLowerCase().includes(needle)),
    sorted,
  );
  const failed = paged?.failed ?? sorted.failed;
  const failedCount = paged?.failedCount ?? failed.length;
  const slowest = paged?.slowest ?? sorted.slowest;
  const shownCount = paged?.matching ?? sorted.shown;
  const suites = failingSuitesFirst(sorted.suites);

  yield html`<p><a href="${runsPagePath()}">← Runs</a></p>
<h1><a class="name" href="${runsPagePath({ project: run.project })}">${run.project}</a> · ${run.framework} ${stateBadge(state, run.quarantined)} ${failuresBadge(run.counts, run.quarantined)}</h1>
<p class="muted" id="run-state">${stateSentence(run, state, abandonedAfterMs, now)}</p>
<p class="line"><span>${createdAt(run.createdAt, now)}</span><span>${formatCount(run.total)} results · ${runDurationLine(run)}</span><span>${tagList(run.tags)}</span></p>
<p class="muted">Run <code>${run.id}</code> · <a href="${flakyPagePath(run.project)}">flaky tests in ${run.project}</a> · <a href="${quarantinePagePath(run.project)}">quarantine in ${run.project}</a></p>
${statusBar(run.counts, run.total)}
<nav class="statuses">${statusLink(run, undefined, `all (${formatCount(run.total)})`, status, search)}${filters.map(
    (s) => statusLink(run, s, `${s} (${formatCount(run.counts[s] ?? 0)})`, status, search),
  )}</nav>
<form class="search" method="get" action="${runPagePath(run.id)}" role="search"><label>Search suites and tests<input type="search" name="q" value="${search ?? ''}"></label>${
    status === undefined ? '' : html`<input type="hidden" name="status" value="${status}">`
  }<button type="submit">Search</button>${narrowed ? html`<a href="${runPagePath(run.id)}">show all</a>` : ''}</form>
${narrowed ? html`<p class="muted" id="shown-summary">${shownSummary(shownCount, run.total, search, status)}</p>` : ''}
`;
  if (failed.length > 0) {
    yield html`<h2 id="failed">Failed (${formatCount(failedCount)})</h2>\n`;
    yield* namedTable('failed-tests', run, failed, files ?? NO_FILES);
    yield html`\n${failuresByMessage(failed)}`;
  }
  yield html`\n`;
  if (slowest.length > 0) {
    yield html`<h2 id="slowest">Slowest tests</h2>\n`;
    yield* namedTable('slowest-tests', run, slowest);
  }
  yield shardTable(shards);
  yield html`
<h2 id="suites">Suites (${formatCount(suites.length)})</h2>
${suites.length === 0 ? html`<p>${run.total === 0 ? 'This run has no results yet.' : 'No results match.'}</p>` : ''}
${paged && paged.pageCount > 1 ? resultsPager(run.id, paged, search, status) : ''}
`;
  for (const [suite, group] of suites) {
    yield* suiteDetails(run.project, suite, group, statuses, narrowed);
  }
  if (paged && paged.pageCount > 1) yield resultsPager(run.id, paged, search, status);
}

/** Pages of a run's results, RESULTS_PER_PAGE each, in arrival order (a suite may span two). */
function resultsPager(
  runId: string,
  { page, pageCount, matching }: PagedResults,
  search: string | undefined,
  status: string | undefined,
): SafeHtml {
  const link = (to: number, label: string) =>
    html`<a href="${runPagePath(runId, { status, q: search, page: to })}">${label}</a>`;
  const first = (page - 1) * RESULTS_PER_PAGE + 1;
  const last = Math.min(page * RESULTS_PER_PAGE, matching);
  return html`<nav class="pager"><span>${page > 1 ? link(page - 1, '← previous') : ''}</span><span class="muted">results ${formatCount(first)}–${formatCount(last)} of ${formatCount(matching)} · page ${page} of ${pageCount}</span><span>${page < pageCount ? link(page + 1, 'next →') : ''}</span></nav>`;
}

/** Nothing to send: a point where a long computation lets streamPage give the event loop a turn. */
const PAUSE = html``;
const RESULTS_PER_PAUSE = 2048;

/** A suite's results that the page shows, failed ones apart, each in arrival order. */
interface SuiteGroup {
  failed: StoredResult[];
  others: StoredResult[];
}

interface SortedResults {
  /** How many results the page shows. */
  shown: number;
  failed: StoredResult[];
  slowest: StoredResult[];
  suites: Map<string, SuiteGroup>;
}

/**
 * One pass over the run's results, sorting out those the page shows into `into`: the failed
 * ones, the slowest that ran, the suites. It pauses every RESULTS_PER_PAUSE results, so that
 * sorting 100,000 results does not hold the event loop either.
 */
function* sortOut(
  results: readonly StoredResult[],
  shows: (result: StoredResult) => boolean,
  into: SortedResults,
): Generator<SafeHtml> {
  for (let index = 0; index < results.length; index++) {
    if (index % RESULTS_PER_PAUSE === RESULTS_PER_PAUSE - 1) yield PAUSE;
    const result = results[index] as StoredResult;
    if (!shows(result)) continue;
    into.shown += 1;
    const isFailed = result.status === 'failed';
    if (isFailed) into.failed.push(result);
    keepIfSlowest(into.slowest, result, SLOWEST_TESTS);
    let group = into.suites.get(result.testSuite);
    if (!group) {
      group = { failed: [], others: [] };
      into.suites.set(result.testSuite, group);
    }
    (isFailed ? group.failed : group.others).push(result);
  }
}

/**
 * The `count` longest results that ran (never a skipped or todo one), longest first, in one
 * pass: sorting 100,000 results to keep 10 would hold the event loop for no reason.
 */
export function slowestThatRan(results: readonly StoredResult[], count: number): StoredResult[] {
  const kept: StoredResult[] = [];
  for (const result of results) keepIfSlowest(kept, result, count);
  return kept;
}

/** Adds `result` to `kept` (longest first, at most `count`) if it ran and is among the longest. */
function keepIfSlowest(kept: StoredResult[], result: StoredResult, count: number): void {
  if (NOT_RUN.has(result.status)) return;
  const last = kept[kept.length - 1];
  if (kept.length === count && (last === undefined || result.duration <= last.duration)) return;
  // Insert after every kept result at least as long: ties stay in arrival order, as a stable sort keeps them.
  let at = kept.length;
  while (at > 0 && (kept[at - 1] as StoredResult).duration < result.duration) at -= 1;
  kept.splice(at, 0, result);
  if (kept.length > count) kept.pop();
}

/** What the state means for this run, with the time it rests on. */
function stateSentence(run: RunWithCounts, state: RunState, abandonedAfterMs: number, now: number): SafeHtml {
  if (run.end) return html`Ended ${state} ${createdAt(run.end.endedAt, now)}.`;
  const last = html`Last results received ${createdAt(run.lastReceivedAt, now)}`;
  if (state === 'abandoned') {
    return html`Never completed, and nothing received for ${formatDuration(abandonedAfterMs)}: abandoned. ${last}. Its job was probably stopped before its reporter completed it: <code>npx @testrun/cli replay</code> where it ran sends what it spooled, its end included; a run that shards shared is completed with <code>testrun complete-run</code>.`;
  }
  return html`Running: not completed yet. ${last}. The reporter that created it completes it once its tests end; a run that shards share, <code>testrun complete-run</code> after the last shard.`;
}

export function renderRunNotFoundPage(runId: string): string {
  return layout('Run not found', html`<p><a href="${runsPagePath()}">← Runs</a></p><h1>No run ${runId}</h1>`);
}

function statusLink(
  run: RunWithCounts,
  linked: string | undefined,
  label: string,
  current: string | undefined,
  search: string | undefined,
): SafeHtml {
  const href = runPagePath(run.id, { status: linked, q: search });
  const classes = [linked === undefined ? '' : statusClass(linked), linked === current ? 'current' : ''];
  return html`<a href="${href}" class="${classes.join(' ').trim()}">${label}</a>`;
}

function shownSummary(shown: number, total: number, search: string | undefined, status: string | undefined) {
  const what = [
    status === undefined ? '' : ` ${status}`,
    search === undefined ? '' : ` matching “${search}”`,
  ];
  return `Showing ${formatCount(shown)} of ${formatCount(total)} results:${what.join('')}.`;
}

/** The suites in arrival order, those with a failed test first. */
function failingSuitesFirst(suites: Map<string, SuiteGroup>): [string, SuiteGroup][] {
  const failing: [string, SuiteGroup][] = [];
  const passing: [string, SuiteGroup][] = [];
  for (const entry of suites) (entry[1].failed.length > 0 ? failing : passing).push(entry);
  return [...failing, ...passing];
}

function* suiteDetails(
  project: string,
  suite: string,
  group: SuiteGroup,
  statuses: readonly string[],
  narrowed: boolean,
): Generator<SafeHtml> {
  const counts: Record<string, number> = Object.fromEntries(statuses.map((status) => [status, 0]));
  let duration = 0;
  const results = [...group.failed, ...group.others];
  for (const result of results) {
    counts[result.status] = (counts[result.status] ?? 0) + 1;
    duration += result.duration;
  }
  const open = narrowed || (counts.failed ?? 0) > 0;
  yield html`<details class="suite"${open ? html` open` : ''}>
<summary><span class="name"><strong>${suite}</strong></span> <span class="muted">${formatCount(results.length)} ${results.length === 1 ? 'test' : 'tests'} · ${formatDuration(duration)}</span> · ${countsLine(counts)}${statusBar(counts, results.length)}</summary>
<div class="table-wrap"><table><thead><tr><th>Test</th><th>Status</th><th class="num">Duration</th></tr></thead><tbody>
`;
  for (const result of results) yield testRow(project, result);
  yield html`</tbody></table></div>
</details>
`;
}

const NO_FILES: RunFiles = { received: new Set(), texts: new Map() };

/** Tests with their suite: the failed ones (with why they failed and their files), the slowest ones. */
function* namedTable(
  id: string,
  run: RunWithCounts,
  results: readonly StoredResult[],
  files?: RunFiles,
): Generator<SafeHtml> {
  const { project } = run;
  yield html`<div class="table-wrap"><table id="${id}"><thead><tr><th>Test · suite</th><th class="num">Duration</th></tr></thead><tbody>
`;
  // Failed tests' rows are what a CI summary links to (test-anchor.ts): one id per row.
  const seen = new Map<string, number>();
  for (const result of results) {
    const key = `${result.testSuite}\n${result.testCase}`;
    const occurrence = (seen.get(key) ?? 0) + 1;
    seen.set(key, occurrence);
    const anchor = files ? html` id="${testAnchor(result.testSuite, result.testCase, occurrence)}"` : '';
    const why = files
      ? html`${failureDetailsBlock(result.details)}${attachmentsBlock(run.id, result, files)}`
      : '';
    yield html`<tr class="test"${anchor} data-status="${result.status}"${result.quarantined ? html` data-quarantined` : ''}><td>${testLink({ project, ...result })}${result.quarantined ? html` ${QUARANTINED_MARK}` : ''}<br><span class="muted name">${result.testSuite}</span>${why}</td><td class="num" title="${result.duration} ms">${formatDuration(result.duration)}</td></tr>
`;
  }
  yield html`</tbody></table></div>`;
}

function testRow(project: string, result: StoredResult): SafeHtml {
  return html`<tr class="test" data-status="${result.status}"><td>${testLink({ project, ...result })}${result.quarantined ? html` ${QUARANTINED_MARK}` : ''}</td><td class="status ${statusClass(result.status)}">${result.status}</td><td class="num" title="${result.duration} ms">${formatDuration(result.duration)}</td></tr>
`;
}
