import { flakyPagePath, paths, runsPagePath } from '../paths.js';
import { outcomeStrip } from './charts.js';
import { FLAKY_WINDOW, type FlakyTest } from './history.js';
import { html, type SafeHtml } from './html.js';
import { pageParts, testLink } from './layout.js';

export interface ProjectFlakes {
  project: string;
  /** How many runs the rule looked at: the project's last FLAKY_WINDOW, or fewer. */
  runs: number;
  flaky: FlakyTest[];
}

/**
 * GET /flaky, /flaky?project=… : per project, the tests that both passed and failed lately, most
 * flips first. In parts, a card each, for streamPage: a large project's list is rendered as it is sent.
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
  yield html`<h1>Flaky tests</h1>
<p id="flaky-rule">A test (its project, suite and name) is <strong>flaky</strong> when, within its project's last ${FLAKY_WINDOW} runs, it passed in at least one run and failed in at least one other. <strong>Flips</strong> count how often its outcome changed between passed and failed from one run that held it to the next; runs where it was skipped or absent are left out. Most flips first.</p>
<form method="get" action="${paths.flakyPage}"><label>Project<select name="project"><option value="">all</option>${allProjects.map(
    (project) =>
      html`<option value="${project}"${project === selected ? html` selected` : ''}>${project}</option>`,
  )}</select></label><button type="submit">Show</button></form>
${allProjects.length === 0 ? html`<p>No runs yet: <a href="${runsPagePath()}">the runs page</a> says how to report here.</p>` : ''}
`;
  for (const project of projects) yield* projectSection(project);
}

function* projectSection({ project, runs, flaky }: ProjectFlakes): Generator<SafeHtml> {
  yield html`<section class="project" data-project="${project}">
<h2><a class="name" href="${flakyPagePath(project)}">${project}</a> <span class="muted">· last ${runs} ${runs === 1 ? 'run' : 'runs'}</span></h2>
`;
  if (flaky.length === 0) {
    yield html`<p class="none">No flaky tests.</p>`;
  } else {
    yield html`<ol class="cards">
`;
    for (const test of flaky) {
      yield html`<li class="card flaky" data-flips="${test.flips}"><div class="line">${testLink({ project, ...test })}<span class="muted name">${test.testSuite}</span></div>
<div class="line"><span><strong>${test.flips}</strong> ${test.flips === 1 ? 'flip' : 'flips'}</span><span><span class="count failed">failed ${test.failed}</span> · <span class="count passed">passed ${test.passed}</span> of ${runs} runs</span></div>
${outcomeStrip(test.outcomes)}</li>
`;
    }
    yield html`</ol>`;
  }
  yield html`
</section>
`;
}
