import { type Quarantine, testKey } from '../ledger/quarantines.js';
import {
  flakyPagePath,
  paths,
  quarantineChangePath,
  quarantinePagePath,
  runPagePath,
  runsPagePath,
} from '../paths.js';
import { outcomeStrip } from './charts.js';
import { FLAKY_WINDOW, type FlakyOrFailing, type FlakyTest, type NewFailure } from './flaky-or-failing.js';
import { absoluteTime } from './format.js';
import { html, type SafeHtml } from './html.js';
import { pageParts, testLink } from './layout.js';

export interface ProjectFlakes extends FlakyOrFailing {
  project: string;
  /** The project's quarantines in force, by test key: a card says so, or offers to quarantine it. */
  quarantined?: ReadonlyMap<string, Quarantine>;
}

/**
 * Cards per list on the page for all projects: an overview, each project's worst first, the rest
 * on the project's own page. Ten projects of 80 flaky tests each had made a 1.3 MB page nobody
 * reads to the end.
 */
export const OVERVIEW_CARDS = 10;

/**
 * GET /flaky, /flaky?project=… : per project, its flaky tests and, apart, its newly failing ones
 * (flaky-or-failing.ts). In parts, a card each, for streamPage: a large project's list is
 * rendered as it is sent.
 */
export function renderFlakyPage(
  projects: readonly ProjectFlakes[],
  allProjects: readonly string[],
  selected: string | undefined,
): Iterable<SafeHtml> {
  return pageParts('Flaky tests', flakyContent(projects, allProjects, selected));
}

function* flakyContent(
  projects: readonly ProjectFlakes[],
  allProjects: readonly string[],
  selected: string | undefined,
): Generator<SafeHtml> {
  // The rule is said once, folded: the page opens with what it found.
  yield html`<h1>Flaky tests</h1>
<details id="flaky-rule"><summary>How a test is judged flaky</summary>
<p><strong>By commit</strong>, where runs carry the commit they built (the <code>commit:</code> tag the reporters add in CI): a test is <strong>flaky</strong> when one commit both passed and failed it (a rerun, a retried job, another shard), and <strong>newly failing</strong> when it failed on every commit of a branch since one that passed it.</p>
<p><strong>Across runs</strong>, where no run carries a commit: a test (its project, suite and name) is flaky when, within its project's last ${FLAKY_WINDOW} runs, it passed in at least one run and failed in at least one other, which a regression does too.</p>
<p>Either way, a test that <strong>passed on a retry</strong> within one run (attempt 2 or later, where its reporter said so) is flaky. <strong>Flips</strong> count how often a test's outcome changed between passed and failed from one run that held it to the next; runs where it was skipped or absent are left out.</p>
</details>
<form method="get" action="${paths.flakyPage}"><label>Project<select name="project"><option value="">all</option>${allProjects.map(
    (project) =>
      html`<option value="${project}"${project === selected ? html` selected` : ''}>${project}</option>`,
  )}</select></label><button type="submit">Show</button></form>
${allProjects.length === 0 ? html`<p>No runs yet: <a href="${runsPagePath()}">the runs page</a> says how to report here.</p>` : ''}
`;
  const shown = selected === undefined ? OVERVIEW_CARDS : Number.POSITIVE_INFINITY;
  // On the page for all projects, those with nothing to show are one line, not a section each.
  const calm = selected === undefined ? projects.filter(hasNothing) : [];
  for (const project of projects) if (!calm.includes(project)) yield* projectSection(project, shown);
  if (calm.length > 0) yield nothingIn(calm);
}

function hasNothing({ flaky, newlyFailing }: FlakyOrFailing): boolean {
  return flaky.length === 0 && newlyFailing.length === 0;
}

/** The projects with nothing flaky or newly failing, in one line, each linked to its own page. */
function nothingIn(projects: readonly ProjectFlakes[]): SafeHtml {
  const links = projects.map(
    (flakes, i) =>
      html`${i === 0 ? '' : ', '}<a class="name" href="${flakyPagePath(flakes.project)}" data-project="${flakes.project}">${flakes.project}</a>`,
  );
  return html`<p id="nothing-flaky" class="none">Nothing flaky or newly failing in ${links}.</p>
`;
}

function* projectSection(flakes: ProjectFlakes, shown: number): Generator<SafeHtml> {
  const { project, runs, rule, flaky } = flakes;
  yield html`<section class="project" data-project="${project}" data-rule="${rule}">
<h2><a class="name" href="${flakyPagePath(project)}">${project}</a> <span class="muted">· last ${runs} ${runs === 1 ? 'run' : 'runs'}</span></h2>
${ruleUsed(flakes)}
<h3>Flaky</h3>
`;
  if (flaky.length === 0) {
    yield html`<p class="none">No flaky tests.</p>`;
  } else {
    yield html`<ol class="cards">
`;
    for (const test of flaky.slice(0, shown)) {
      yield flakyCard(
        project,
        flakes.judgedRuns,
        test,
        flakes.quarantined?.get(testKey(test.testSuite, test.testCase)),
      );
    }
    yield html`</ol>${more(project, flaky.length - shown, 'flaky')}`;
  }
  yield html`
`;
  if (rule === 'same-commit') yield* newlyFailing(project, flakes.newlyFailing, shown);
  yield html`
</section>
`;
}

/** Which of the two rules (said once, at the top) judged this project, in a few words. */
function ruleUsed({ rule, runs, judgedRuns }: FlakyOrFailing): SafeHtml {
  if (rule === 'passed-and-failed')
    return html`<p class="rule">Judged across runs: no run carried a commit tag.</p>`;
  const untaggedRuns = runs - judgedRuns;
  const leftOut =
    untaggedRuns === 0
      ? ''
      : html`; ${untaggedRuns} without one ${untaggedRuns === 1 ? 'was' : 'were'} left out`;
  return html`<p class="rule">Judged by commit: ${judgedRuns} of these runs carried a commit tag${leftOut}.</p>`;
}

/** `judged`: the runs the rule looked at, those with a commit under `same-commit`. */
function flakyCard(
  project: string,
  judged: number,
  test: FlakyTest,
  quarantine: Quarantine | undefined,
): SafeHtml {
  const named = { project, testSuite: test.testSuite, testCase: test.testCase };
  const quarantined =
    quarantine === undefined
      ? html`<a class="quarantine-link" href="${quarantineChangePath('add', named)}">Quarantine…</a>`
      : html`<a class="quarantine-state ${quarantine.state}" href="${quarantinePagePath(project)}">${quarantine.state === 'expired' ? 'quarantine expired' : `quarantined until ${quarantine.expiresAt.slice(0, 10)}`}</a>`;
  return html`<li class="card flaky" data-flips="${test.flips}"><div class="line">${testLink({ project, ...test })}<span class="muted name">${test.testSuite}</span>${quarantined}</div>
<div class="line"><span><strong>${test.flips}</strong> ${test.flips === 1 ? 'flip' : 'flips'}</span><span><span class="count failed">failed ${test.failed}</span> · <span class="count passed">passed ${test.passed}</span> of ${judged} runs</span></div>
${test.bothOutcomes.map(
  ({ commit, passedIn, failedIn }) =>
    html`<div class="line both-outcomes" data-commit="${commit}"><span>commit ${commitCode(commit)}:</span><a href="${runPagePath(passedIn.id)}">passed (${absoluteTime(passedIn.createdAt)})</a><a href="${runPagePath(failedIn.id)}">failed (${absoluteTime(failedIn.createdAt)})</a></div>
`,
)}${test.retriedPasses.map(
  ({ run, attempts }) =>
    html`<div class="line retried-pass" data-run="${run.id}" data-attempts="${attempts}"><span>passed on attempt ${attempts} in <a href="${runPagePath(run.id)}">run ${run.id}</a> (${absoluteTime(run.createdAt)})</span></div>
`,
)}${outcomeStrip(test.outcomes)}</li>
`;
}

/** The link to the rest of a list the overview cut. */
function more(project: string, hidden: number, list: 'flaky' | 'newly failing'): SafeHtml | string {
  if (hidden <= 0) return '';
  return html`<p class="more"><a href="${flakyPagePath(project)}">${hidden} more ${list} ${hidden === 1 ? 'test' : 'tests'} in ${project}</a></p>`;
}

function* newlyFailing(project: string, tests: readonly NewFailure[], shown: number): Generator<SafeHtml> {
  yield html`<h3>Newly failing</h3>
`;
  if (tests.length === 0) {
    yield html`<p class="none">No newly failing tests.</p>`;
    return;
  }
  yield html`<ol class="cards">
`;
  for (const test of tests.slice(0, shown)) {
    yield html`<li class="card new-failure" data-commit="${test.commit}"${test.branch === undefined ? '' : html` data-branch="${test.branch}"`}><div class="line">${testLink({ project, ...test })}<span class="muted name">${test.testSuite}</span></div>
<div class="line"><span>failing${test.branch === undefined ? '' : html` on <span class="branch name">${test.branch}</span>`} since commit ${commitCode(test.commit)}: <a class="first-failing" href="${runPagePath(test.firstFailingRun.id)}">first failing run (${absoluteTime(test.firstFailingRun.createdAt)})</a></span><span class="failed">failed in ${test.failedRuns} ${test.failedRuns === 1 ? 'run' : 'runs'} on ${test.failingCommits} ${test.failingCommits === 1 ? 'commit' : 'commits'}</span><a class="last-passing" href="${runPagePath(test.lastPassingRun.id)}">last passed (${absoluteTime(test.lastPassingRun.createdAt)})</a></div>
${outcomeStrip(test.outcomes)}</li>
`;
  }
  yield html`</ol>${more(project, tests.length - shown, 'newly failing')}`;
}

/** A commit as people read it: a full hex SHA shortened to 7, the whole of it on hover. */
function commitCode(commit: string): SafeHtml {
  const short = /^[0-9a-f]{12,}$/i.test(commit) ? commit.slice(0, 7) : commit;
  return html`<code title="${commit}">${short}</code>`;
}
