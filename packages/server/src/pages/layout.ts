import type { RunState } from '../ledger/run-state.js';
import type { RunWithCounts } from '../ledger/store.js';
import { flakyPagePath, quarantinePagePath, runsPagePath, testPagePath } from '../paths.js';
import { tagViews } from './ci-links.js';
import { absoluteTime, formatCount, formatDuration, relativeTime } from './format.js';
import { html, SafeHtml } from './html.js';
import { type RunDuration, runDuration } from './run-duration.js';

// The frame of every page and the pieces they share. No script anywhere: filters and
// search are GET forms, suites fold with <details>, pictures are inline SVG.

/** The one stylesheet, inline; the Content-Security-Policy allows it by its hash (security-headers.ts). */
export const style = `
:root { color-scheme: light dark;
  --passed: #2e7d32; --failed: #c62828; --skipped: #616161; --todo: #1565c0; --other: #6a4fb3;
  --text: #1f1f1f; --page: #f7f7f8; --card: #fff; --chip: #e8eaed; --line: #e2e2e2; --muted: #5f6368; --link: #0b57d0;
  --absent: #fff; --absent-edge: #b0b0b0; --on-status: #fff;
  --running: #0b57d0; --completed: #1b5e20; --ended-failed: #b71c1c; --interrupted: #8a4b00; }
@media (prefers-color-scheme: dark) {
  :root { --passed: #81c784; --failed: #ef9a9a; --skipped: #bdbdbd; --todo: #90caf9; --other: #b39ddb;
    --text: #e3e3e3; --page: #121212; --card: #1e1e1e; --chip: #2d2f31; --line: #3a3c3e; --muted: #a8adb3; --link: #8ab4f8;
    --absent: #1e1e1e; --absent-edge: #6b6f73; --on-status: #121212;
    --running: #8ab4f8; --completed: #81c784; --ended-failed: #ef9a9a; --interrupted: #ffb74d; }
}
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: var(--text); background: var(--page); }
a { color: var(--link); }
header.top { display: flex; flex-wrap: wrap; gap: 0.3rem 1.2rem; align-items: baseline; padding: 0.6rem 1rem; background: #1f1f1f; }
header.top a { color: #fff; text-decoration: none; }
header.top .brand { font-weight: 700; margin-right: 0.6rem; }
main, footer { max-width: 64rem; margin: 0 auto; padding: 0.5rem 1rem; }
footer { color: var(--muted); font-size: 0.85rem; padding-bottom: 2rem; }
h1 { font-size: 1.35rem; margin: 0.6rem 0 0.3rem; overflow-wrap: anywhere; }
h2 { font-size: 1.05rem; margin: 1.6rem 0 0.5rem; }
p { margin: 0.4rem 0; }
pre { background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: 0.6rem 0.8rem; overflow-x: auto; }
.muted { color: var(--muted); }
.name { overflow-wrap: anywhere; white-space: pre-wrap; }
code { overflow-wrap: anywhere; }
.tag { display: inline-block; background: var(--chip); border-radius: 3px; padding: 0 0.35rem; font-size: 0.85rem; margin-right: 0.2rem; }
.count, .status { white-space: nowrap; font-weight: 600; }
.passed { color: var(--passed); fill: var(--passed); } .failed { color: var(--failed); fill: var(--failed); }
.skipped { color: var(--skipped); fill: var(--skipped); } .todo { color: var(--todo); fill: var(--todo); }
.other { color: var(--other); fill: var(--other); } .absent { fill: var(--absent); stroke: var(--absent-edge); }
.count.passed::before, .status.passed::before, a.passed::before { content: "✓ " / ""; }
.count.failed::before, .status.failed::before, a.failed::before { content: "✗ " / ""; }
.count.skipped::before, .status.skipped::before, a.skipped::before { content: "○ " / ""; }
.count.todo::before, .status.todo::before, a.todo::before { content: "◇ " / ""; }
.count.other::before, .status.other::before, a.other::before { content: "• " / ""; }
svg.bar { display: block; width: 100%; height: 10px; border-radius: 3px; background: var(--chip); margin: 0.35rem 0; }
svg.bar rect.failed { fill: url(#failed-hatch); }
svg.defs .hatch-gap { fill: var(--on-status); }
svg.defs { position: absolute; width: 0; height: 0; overflow: hidden; }
svg.strip, svg.spark { display: block; max-width: 100%; height: auto; margin: 0.4rem 0; }
svg.strip text { fill: var(--on-status); font: 600 11px system-ui, sans-serif; text-anchor: middle; pointer-events: none; }
svg.spark polyline { fill: none; stroke: var(--text); stroke-width: 1.5; }
svg.spark circle { fill: var(--text); }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: 0.6rem 0.8rem; margin: 0.5rem 0; }
.card.has-failures { border-left: 6px solid var(--failed); }
.failures { display: inline-block; background: var(--failed); color: var(--on-status); font-weight: 700; font-size: 0.85rem; border-radius: 3px; padding: 0 0.4rem; white-space: nowrap; }
ol.cards { list-style: none; padding: 0; margin: 0; }
.line { display: flex; flex-wrap: wrap; gap: 0.1rem 0.9rem; align-items: baseline; }
.table-wrap { overflow-x: auto; }
table { width: 100%; border-collapse: collapse; background: var(--card); }
th, td { text-align: left; padding: 0.35rem 0.5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 0.85rem; color: var(--muted); font-weight: 600; }
.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
form { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: end; margin: 0.6rem 0; }
form label { display: flex; flex-direction: column; font-size: 0.85rem; color: var(--muted); min-width: 0; }
select, input, button { font: inherit; padding: 0.3rem 0.4rem; max-width: 100%; }
input[type=search] { width: 16rem; max-width: 100%; }
nav.statuses { display: flex; flex-wrap: wrap; gap: 0.2rem 0.9rem; margin: 0.4rem 0; }
nav.statuses a { white-space: nowrap; }
nav.statuses a.current { font-weight: 700; color: inherit; text-decoration: none; }
details.suite { background: var(--card); border: 1px solid var(--line); border-radius: 6px; margin: 0.4rem 0; }
details.suite > summary { cursor: pointer; padding: 0.5rem 0.7rem; }
details.suite table { border-top: 1px solid var(--line); }
.state { display: inline-block; font-size: 0.8rem; font-weight: 600; border: 1px solid currentColor; border-radius: 3px; padding: 0 0.35rem; vertical-align: middle; }
.state-running { color: var(--running); } .state-completed { color: var(--completed); } .state-failed { color: var(--ended-failed); }
.state-interrupted { color: var(--interrupted); } .state-abandoned { color: var(--muted); border-style: dashed; }
.state { position: relative; cursor: help; }
.state .tip { display: none; position: absolute; left: 0; top: 1.6em; z-index: 2; width: max-content; max-width: min(20rem, 80vw); white-space: normal; background: var(--card); color: var(--text); border: 1px solid var(--line); border-radius: 4px; padding: 0.3rem 0.5rem; font-weight: 400; font-size: 0.85rem; }
.state:hover .tip, .state:focus .tip { display: block; }
.pager { display: flex; justify-content: space-between; gap: 1rem; margin: 1rem 0; }
.quarantined-mark, .quarantine-state { display: inline-block; font-size: 0.8rem; font-weight: 600; border: 1px dashed currentColor; border-radius: 3px; padding: 0 0.35rem; color: var(--interrupted); white-space: nowrap; }
.quarantine-state.expired { color: var(--muted); }
.problem { color: var(--ended-failed); }
.suggestion { font-weight: 600; }
.actions a { white-space: nowrap; }
form.quarantine-change { flex-direction: column; align-items: stretch; max-width: 36rem; }
.attachments { margin: 0.4rem 0; }
.attempt-title { font-size: 0.85rem; font-weight: 600; color: var(--muted); margin: 0.5rem 0 0.2rem; }
figure.file { margin: 0.3rem 0 0.6rem; }
figure.file img { display: block; max-width: min(100%, 32rem); max-height: 20rem; height: auto; border: 1px solid var(--line); border-radius: 4px; background: #fff; }
figure.file video { display: block; max-width: min(100%, 40rem); border-radius: 4px; }
figcaption, p.file { font-size: 0.85rem; }
details.log { margin: 0.3rem 0; }
details.log > summary { cursor: pointer; font-size: 0.85rem; }
details.log pre { max-height: 24rem; overflow: auto; font-size: 0.8rem; }
`;

export function layout(title: string, content: SafeHtml): string {
  return [...pageParts(title, [content])].map((part) => part.markup).join('');
}

/** The page's parts in order: its head, each part of its content as given, its foot; for streamPage. */
export function* pageParts(title: string, content: Iterable<SafeHtml>): Generator<SafeHtml> {
  yield html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · testrun</title>
<style>${new SafeHtml(style)}</style>
</head>
<body>
<svg class="defs" aria-hidden="true" focusable="false"><defs><pattern id="failed-hatch" patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)"><rect class="failed" width="6" height="6"/><rect class="hatch-gap" width="2.5" height="6"/></pattern></defs></svg>
<header class="top"><a class="brand" href="${runsPagePath()}">testrun</a><a href="${runsPagePath()}">Runs</a><a href="${flakyPagePath()}">Flaky tests</a><a href="${quarantinePagePath()}">Quarantine</a></header>
<main>
`;
  yield* content;
  yield html`
</main>
<footer>Durations are shown as the reporters send them, in milliseconds, written with a unit: 850 ms, 1.2 s, 3 min 4 s.</footer>
</body>
</html>
`;
}

/**
 * What each state means, as the badge says it when hovered, focused or tapped
 * (docs/design/run-end.md#the-local-server). No script: the explanation is the badge's own text,
 * shown by CSS.
 */
export const STATE_MEANINGS: Readonly<Record<RunState, string>> = {
  running: 'Running: receiving results, or waiting for more. Not completed yet.',
  completed: 'Completed: the run ended and no test failed.',
  failed: 'Failed: the run ended, and a test (or the runner itself) failed.',
  interrupted: 'Interrupted: the run ended before its tests did (a cancelled job, a stopped process).',
  abandoned:
    'Abandoned: never completed, and nothing received for a long time: its job was killed, or nothing completes it (a run shared by shards needs testrun complete-run).',
};

/** What a completed run whose only failures were quarantined tests' says of itself. */
export const PASSED_QUARANTINED_MEANING =
  'Passed: the run ended, and every test that failed is quarantined: its failures are listed, and did not fail the build.';

/**
 * A run's state as a word in a box, coloured too, never by colour alone; it explains itself
 * where it is hovered or tapped. A completed run with quarantined failures
 * (docs/design/quarantine.md) reads `passed — 2 quarantined failures`.
 */
export function stateBadge(state: RunState, quarantined = 0): SafeHtml {
  if (state === 'completed' && quarantined > 0) {
    return html`<span class="state state-${state}" tabindex="0">passed — ${formatCount(quarantined)} quarantined ${quarantined === 1 ? 'failure' : 'failures'}<span class="tip" role="tooltip">${PASSED_QUARANTINED_MEANING}</span></span>`;
  }
  return html`<span class="state state-${state}" tabindex="0">${state}<span class="tip" role="tooltip">${STATE_MEANINGS[state]}</span></span>`;
}

/** The statuses with a colour of their own. */
const COLOURED_STATUSES: ReadonlySet<string> = new Set(['passed', 'failed', 'skipped', 'todo']);

/** The class that colours a status; statuses this server does not know share one colour. */
export function statusClass(status: string | undefined): string {
  if (status === undefined) return 'absent';
  return COLOURED_STATUSES.has(status) ? status : 'other';
}

/** `12 passed · 1 failed`, every status with a count, in the order of `counts`. */
export function countsLine(counts: Record<string, number>): SafeHtml {
  const present = Object.entries(counts).filter(([, count]) => count > 0);
  if (present.length === 0) return html`<span class="muted">no results</span>`;
  return html`${present.map(
    ([status, count], index) =>
      html`${index > 0 ? ' · ' : ''}<span class="count ${statusClass(status)}">${formatCount(count)} ${status}</span>`,
  )}`;
}

/** The run's tags as chips; the commit, branch and build link to where CI said (ci-links.ts). */
export function tagList(tags: readonly string[]): SafeHtml {
  return html`${tagViews(tags).map(({ text, href }) =>
    href === undefined
      ? html`<span class="tag">${text}</span>`
      : html`<a class="tag" href="${href}" rel="external noopener noreferrer">${text}</a>`,
  )}`;
}

/** `5 min ago (2026-11-22 03:27:32 UTC)`. */
export function createdAt(iso: string, now: number): SafeHtml {
  const absolute = absoluteTime(iso);
  return html`<time datetime="${iso}" title="${absolute}">${relativeTime(iso, now)}</time> <span class="muted">(${absolute})</span>`;
}

/** A test's name, linked to its history. */
export function testLink(test: { project: string; testSuite: string; testCase: string }): SafeHtml {
  return html`<a class="name test-link" href="${testPagePath(test)}">${test.testCase}</a>`;
}

const DURATION_KINDS: Record<RunDuration['kind'], { label: string; title: string }> = {
  wall: { label: 'wall clock', title: 'from the run’s creation to its end' },
  'wall-to-last-results': {
    label: 'wall clock to last results',
    title: 'from the run’s creation to the last results received; the run has not ended',
  },
  tests: { label: 'in tests', title: 'the sum of its tests’ durations' },
};

/** `5.4 s wall clock · 191 ms in tests`: the run's length, saying which it is, then its tests' sum. */
export function runDurationLine(run: RunWithCounts): SafeHtml {
  const duration = runDuration(run);
  const { label, title } = DURATION_KINDS[duration.kind];
  const main = html`<span class="duration" data-kind="${duration.kind}" title="${Math.round(duration.ms)} ms, ${title}">${formatDuration(duration.ms)}</span> <span class="muted">${label}</span>`;
  if (duration.kind === 'tests') return main;
  return html`${main} <span class="muted">· <span class="tests-duration" title="${duration.tests} ms, ${DURATION_KINDS.tests.title}">${formatDuration(duration.tests)}</span> in tests</span>`;
}

/**
 * `✗ 3 failed tests`, loud on purpose: one failure in 160 tests is a sliver of a bar. Failures
 * of quarantined tests are counted in it, and said: they never stop being seen.
 */
export function failuresBadge(counts: Record<string, number>, quarantined = 0): SafeHtml {
  const failed = counts.failed ?? 0;
  if (failed === 0) return html``;
  const of =
    quarantined === 0
      ? ''
      : quarantined === failed
        ? ', all quarantined'
        : `, ${formatCount(quarantined)} quarantined`;
  return html`<span class="failures">✗ ${formatCount(failed)} failed ${failed === 1 ? 'test' : 'tests'}${of}</span>`;
}

/** The mark beside a quarantined test's failure. */
export const QUARANTINED_MARK = html`<span class="quarantined-mark" title="A quarantined test: this failure did not fail the build">quarantined</span>`;
