import type { Quarantine, QuarantineChange } from '../ledger/quarantines.js';
import { flakyPagePath, runPagePath, runsPagePath } from '../paths.js';
import { outcomeStrip, sparkline } from './charts.js';
import { failureDetailsBlock } from './failure-details.js';
import { formatDuration } from './format.js';
import { countFlips, HISTORY_RUNS, type Outcome, type TestIdentity } from './history.js';
import { html } from './html.js';
import { createdAt, layout, QUARANTINED_MARK, statusClass } from './layout.js';
import { quarantineOfTest } from './quarantine-page.js';

/**
 * GET /test?project=…&suite=…&test=… : one test across its project's last HISTORY_RUNS
 * runs (`outcomes`, oldest first): a strip of outcomes, a sparkline of durations, and
 * the runs that held it, newest first.
 */
export function renderTestPage(
  test: TestIdentity,
  outcomes: readonly Outcome[],
  now: number,
  quarantine: { quarantine: Quarantine | undefined; changes: readonly QuarantineChange[] } = {
    quarantine: undefined,
    changes: [],
  },
): string {
  const held = outcomes.filter((outcome) => outcome.status !== undefined);
  const { passed, failed, flips } = countFlips(outcomes);
  const durations = held.map((outcome) => outcome.duration);

  const content = html`<p><a href="${runsPagePath({ project: test.project })}">← Runs of ${test.project}</a></p>
<h1 class="name">${test.testCase}</h1>
<p>in <span class="name"><strong>${test.testSuite}</strong></span>, project <a class="name" href="${runsPagePath({ project: test.project })}">${test.project}</a></p>
<p id="history-summary">In ${held.length} of the project's last ${outcomes.length} runs (at most ${HISTORY_RUNS} are shown): ${passed} passed, ${failed} failed; its outcome flipped ${flips} ${flips === 1 ? 'time' : 'times'}. <a href="${flakyPagePath(test.project)}">Flaky tests in ${test.project}</a></p>
${
  outcomes.length === 0
    ? ''
    : html`${outcomeStrip(outcomes)}${sparkline(outcomes)}
<p class="muted">Oldest run on the left; an empty cell is a run without this test. The line is its duration in each run that held it${
        held.length === 0
          ? ''
          : `, from ${formatDuration(Math.min(...durations))} to ${formatDuration(Math.max(...durations))}`
      }.</p>`
}
${quarantineOfTest(test, quarantine.quarantine, quarantine.changes, now)}
<h2>Runs that held it</h2>
${
  held.length === 0
    ? html`<p>None of the project's last ${outcomes.length} runs held this test.</p>`
    : html`<div class="table-wrap"><table id="history"><thead><tr><th>Run</th><th>Outcome</th><th class="num">Duration</th></tr></thead><tbody>
${[...held].reverse().map(
  ({ run, status, duration, details, passedOnAttempt, quarantinedIn }) =>
    html`<tr class="outcome" data-run-id="${run.id}" data-status="${status}"><td><a href="${runPagePath(run.id)}">${createdAt(run.createdAt, now)}</a></td><td class="status ${statusClass(status)}">${status}${passedOnAttempt === undefined ? '' : html` <span class="muted retried-pass">on attempt ${passedOnAttempt}</span>`}${quarantinedIn ? html` ${QUARANTINED_MARK}` : ''}</td><td class="num" title="${duration} ms">${formatDuration(duration)}</td></tr>
${details ? html`<tr class="outcome-failure"><td colspan="3">${failureDetailsBlock(details)}</td></tr>\n` : ''}`,
)}</tbody></table></div>`
}`;
  return layout(test.testCase, content);
}
