import { DEFAULT_QUARANTINE_DAYS, MAX_QUARANTINE_DAYS } from '../api/quarantine.js';
import {
  HEALTH_RUNS,
  LIFT_AFTER_PASSES,
  type ProjectHealth,
  type QuarantineHealth,
} from '../ledger/quarantine-health.js';
import type { Quarantine, QuarantineChange } from '../ledger/quarantines.js';
import { paths, quarantineChangePath, quarantinePagePath, runPagePath, runsPagePath } from '../paths.js';
import { absoluteTime, formatCount, relativeTime } from './format.js';
import { html, type SafeHtml } from './html.js';
import { layout, testLink } from './layout.js';

// The quarantine pages (docs/design/quarantine.md): a project's quarantined tests, how each is doing
// and its changes; the form that quarantines a test or lifts it, and its confirmation. No
// script: forms with POST, each change confirmed on a page of its own.

/** Who the visitor is to these pages: signed in (or a bearer) with the API key, a read key, or neither. */
export type Credential = 'write' | 'read' | undefined;

export interface QuarantinePageInput {
  /** The project shown; undefined: the projects that quarantine tests. */
  project: string | undefined;
  /** Projects with tests in force, and how many each holds. */
  projects: readonly { project: string; count: number }[];
  quarantines: readonly Quarantine[];
  health: ProjectHealth | undefined;
  changes: readonly QuarantineChange[];
  moreChanges: boolean;
  now: number;
}

const DAY_MS = 86_400_000;

export function renderQuarantinePage(input: QuarantinePageInput): string {
  const { project, projects } = input;
  const content = html`<h1>Quarantine</h1>
<p>A quarantined test still runs, and its failures stay listed with why. A build whose every failure is a quarantined test's passes where testrun decides the build (<code>testrun run</code>, or Playwright and Mocha alone); any other failure fails it as always. Each quarantine expires; nothing is quarantined once it has.</p>
<form method="get" action="${paths.quarantinePage}"><label>Project<input name="project" list="quarantine-projects" value="${project ?? ''}" required></label><datalist id="quarantine-projects">${projects.map(
    (entry) => html`<option value="${entry.project}"></option>`,
  )}</datalist><button type="submit">Show</button></form>
${project === undefined ? projectsList(projects) : projectSection(input, project)}`;
  return layout(project === undefined ? 'Quarantine' : `Quarantine · ${project}`, content);
}

function projectsList(projects: QuarantinePageInput['projects']): SafeHtml {
  if (projects.length === 0) {
    return html`<p id="no-quarantine">No project quarantines a test. Quarantine one from its page (every test on a run's page links there), the flaky page, or <code>npx @testrun/cli quarantine add</code>.</p>`;
  }
  return html`<ul id="quarantining-projects">${projects.map(
    ({ project, count }) =>
      html`<li><a class="name" href="${quarantinePagePath(project)}">${project}</a> <span class="muted">· ${formatCount(count)} ${count === 1 ? 'test' : 'tests'}</span></li>`,
  )}</ul>`;
}

function projectSection(input: QuarantinePageInput, project: string): SafeHtml {
  const { quarantines, health, changes, moreChanges, now } = input;
  const branch = health?.defaultBranch;
  return html`<section class="project" data-project="${project}">
<h2><a class="name" href="${runsPagePath({ project })}">${project}</a> <span class="muted">· ${formatCount(quarantines.length)} quarantined</span></h2>
<p class="muted">Measured over the project's last ${formatCount(health?.runs ?? 0)} runs (at most ${HEALTH_RUNS}); passes in a row are counted on ${branch === undefined ? 'runs that name no branch' : html`its default branch, <span class="branch name">${branch}</span>`}.</p>
${
  quarantines.length === 0
    ? html`<p class="none" id="no-quarantine">No test is quarantined in ${project}.</p>`
    : html`<ol class="cards" id="quarantined">${quarantines.map((quarantine) =>
        quarantineCard(quarantine, health?.byKey.get(quarantine.key), branch, now),
      )}</ol>`
}
<h2 id="changes">Changes</h2>
${changesTable(changes, project, now)}${moreChanges ? html`<p class="muted">Older changes: <code>GET /api/v1/quarantines/changes?project=…</code>.</p>` : ''}
</section>`;
}

function quarantineCard(
  quarantine: Quarantine,
  health: QuarantineHealth | undefined,
  branch: string | undefined,
  now: number,
): SafeHtml {
  const expired = quarantine.state === 'expired';
  return html`<li class="card quarantine" id="q-${quarantine.key.slice(0, 12)}" data-state="${quarantine.state}">
<div class="line">${testLink(quarantine)}<span class="muted name">${quarantine.testSuite}</span></div>
<div class="line"><span class="quarantine-state ${expired ? 'expired' : 'active'}">${expired ? 'expired: quarantines nothing' : 'quarantined'}</span><span class="expiry">${expired ? 'expired' : 'until'} ${day(quarantine.expiresAt)} <span class="muted">(${inTime(quarantine.expiresAt, now)})</span></span><span class="since">since ${day(quarantine.since)} <span class="muted">(${relativeTime(quarantine.since, now)})</span> by <span class="name">${quarantine.by}</span></span>${quarantine.owner === undefined ? '' : html`<span class="owner">owner <span class="name">${quarantine.owner}</span></span>`}</div>
<p class="reason">Why: <span class="name">${quarantine.reason}</span></p>
${healthLines(health, branch)}
<div class="line actions"><a href="${quarantineChangePath('add', quarantine)}">${expired ? 'Renew…' : 'Change…'}</a><a href="${quarantineChangePath('lift', quarantine)}">Lift…</a></div>
</li>
`;
}

function healthLines(health: QuarantineHealth | undefined, branch: string | undefined): SafeHtml {
  if (!health) return html``;
  const kept = html`<span class="kept-green">kept <strong>${formatCount(health.keptGreen)}</strong> ${health.keptGreen === 1 ? 'build' : 'builds'} green</span>`;
  if (!health.measured) return html`<div class="line">${kept}</div>`;
  const last = health.lastFailure;
  const lastFailure = last
    ? html`<span class="last-failure">last failed in <a href="${runPagePath(last.runId)}">a run ${relativeTime(last.at, Date.now())}</a> <span class="muted">(${absoluteTime(last.at)})</span>${last.message === undefined ? '' : html`: <span class="name">${last.message}</span>`}</span>`
    : html`<span class="last-failure">no failure in the runs measured</span>`;
  const on = branch === undefined ? 'runs without a branch' : branch;
  const streak = html`<span class="streak">passed its last ${formatCount(health.passingStreak)} ${health.passingStreak === 1 ? 'run' : 'runs'} on <span class="name">${on}</span></span>`;
  const suggestion =
    health.passingStreak >= LIFT_AFTER_PASSES
      ? html`<p class="suggestion">It passed ${formatCount(health.passingStreak)} runs in a row on ${on} (${LIFT_AFTER_PASSES} or more): lift its quarantine?</p>`
      : html``;
  return html`<div class="line">${lastFailure}</div>
<div class="line">${kept}${streak}</div>
${suggestion}`;
}

function changesTable(changes: readonly QuarantineChange[], project: string, now: number): SafeHtml {
  if (changes.length === 0) return html`<p class="none">No change yet.</p>`;
  return html`<div class="table-wrap"><table id="quarantine-changes"><thead><tr><th>When</th><th>Test</th><th>Change</th><th>By</th><th>Why</th></tr></thead><tbody>
${changes.map(
  (change) =>
    html`<tr class="change" data-action="${change.action}"><td><time datetime="${change.at}" title="${absoluteTime(change.at)}">${relativeTime(change.at, now)}</time></td><td>${testLink({ ...change, project })}<br><span class="muted name">${change.testSuite}</span></td><td>${change.action}${change.expiresAt === undefined ? '' : html` <span class="muted">until ${day(change.expiresAt)}</span>`}</td><td><span class="name">${change.by}</span> <span class="muted">(${change.via === 'page' ? 'on a page' : 'API'})</span></td><td class="name">${change.reason}</td></tr>
`,
)}</tbody></table></div>`;
}

/** A test's quarantine as its page shows it (test-page.ts): its state, a link to change it, its changes. */
export function quarantineOfTest(
  test: { project: string; testSuite: string; testCase: string },
  quarantine: Quarantine | undefined,
  changes: readonly QuarantineChange[],
  now: number,
): SafeHtml {
  const inForce = quarantine !== undefined && quarantine.state !== 'lifted';
  const state = !inForce
    ? html`<p id="quarantine-state">Not quarantined. <a href="${quarantineChangePath('add', test)}">Quarantine it…</a></p>`
    : html`<p id="quarantine-state" data-state="${quarantine.state}"><span class="quarantine-state ${quarantine.state}">${quarantine.state === 'expired' ? 'quarantine expired' : 'quarantined'}</span> ${quarantine.state === 'expired' ? 'on' : 'until'} ${day(quarantine.expiresAt)} <span class="muted">(${inTime(quarantine.expiresAt, now)})</span>: <span class="name">${quarantine.reason}</span> · <a href="${quarantinePagePath(test.project)}">the project's quarantine</a> · <a href="${quarantineChangePath('add', test)}">${quarantine.state === 'expired' ? 'Renew…' : 'Change…'}</a> · <a href="${quarantineChangePath('lift', test)}">Lift…</a></p>`;
  return html`<h2 id="quarantine">Quarantine</h2>
${state}
${changes.length === 0 ? '' : changesTable(changes, test.project, now)}`;
}

export interface ChangeForm {
  action: 'add' | 'lift';
  project: string;
  testSuite: string;
  testCase: string;
  reason: string;
  owner: string;
  days: string;
  by: string;
}

/** GET /quarantine/change: the form, where the visitor may change; a sign-in link where not. */
export function renderChangeForm(
  form: ChangeForm,
  current: Quarantine | undefined,
  credential: Credential,
  signInPath: string,
  problem?: string,
): string {
  const adding = form.action === 'add';
  const title = adding ? 'Quarantine a test' : 'Lift a quarantine';
  const inForce = current !== undefined && current.state !== 'lifted';
  const now = html`${inForce ? html`It is ${current.state === 'expired' ? 'quarantined, but that expired on' : 'quarantined until'} ${day(current.expiresAt)}: <span class="name">${current.reason}</span>.` : 'It is not quarantined.'}`;
  const may =
    credential === 'write'
      ? ''
      : html`<p class="problem" role="alert"><strong>${
          credential === 'read'
            ? 'You are signed in with a read key, which reads and changes nothing.'
            : 'Changing a quarantine needs the API key.'
        }</strong> <a href="${signInPath}">Sign in with the API key</a> to ${adding ? 'quarantine' : 'lift'} it.</p>`;
  const fields = adding
    ? html`<label>Why (required)<input name="reason" value="${form.reason}" maxlength="1000" required></label>
<label>Owner<input name="owner" value="${form.owner}" maxlength="200" placeholder="who sees to it"></label>
<label>For how many days<input name="days" type="number" min="1" max="${MAX_QUARANTINE_DAYS}" value="${form.days}" required></label>`
    : html`<label>Why (required)<input name="reason" value="${form.reason}" maxlength="1000" required></label>`;
  const content = html`<p><a href="${quarantinePagePath(form.project)}">← Quarantine in ${form.project}</a></p>
<h1>${title}</h1>
<p><span class="name"><strong>${form.testCase}</strong></span> in <span class="name">${form.testSuite}</span>, project <span class="name">${form.project}</span>. ${now}</p>
${problem ? html`<p class="problem" role="alert"><strong>${problem}</strong></p>` : ''}
${adding ? html`<p>Quarantined, it still runs, and each of its failures is stored and shown; a build whose every failure is a quarantined test's passes. It lasts ${DEFAULT_QUARANTINE_DAYS} days unless you say, at most ${MAX_QUARANTINE_DAYS}.</p>` : html`<p>Lifted, its failures fail builds again.</p>`}
${may}
${
  credential === 'write' && (adding || inForce)
    ? html`<form class="quarantine-change" method="post" action="${paths.quarantineChange}">${hiddenTest(form)}${fields}
<label>Your name (required)<input name="by" value="${form.by}" maxlength="200" required autocomplete="name"></label>
<button type="submit">Review</button></form>`
    : ''
}`;
  return layout(title, content);
}

/** POST /quarantine/change without `confirm`: what will happen, and the one button that does it. */
export function renderConfirmation(form: ChangeForm, expiresAt: string | undefined): string {
  const adding = form.action === 'add';
  const title = adding ? 'Confirm the quarantine' : 'Confirm lifting the quarantine';
  const what = adding
    ? html`Quarantine <span class="name"><strong>${form.testCase}</strong></span> in <span class="name">${form.testSuite}</span>, project <span class="name">${form.project}</span>, until ${day(expiresAt ?? '')}? Its failures stop failing builds until then; it keeps running, and each failure stays listed.`
    : html`Lift the quarantine of <span class="name"><strong>${form.testCase}</strong></span> in <span class="name">${form.testSuite}</span>, project <span class="name">${form.project}</span>? Its failures fail builds again.`;
  const content = html`<h1>${title}</h1>
<p id="confirm-what">${what}</p>
<p>Why: <span class="name">${form.reason}</span>${adding && form.owner ? html` · owner <span class="name">${form.owner}</span>` : ''} · by <span class="name">${form.by}</span></p>
<form class="quarantine-confirm" method="post" action="${paths.quarantineChange}">${hiddenTest(form)}<input type="hidden" name="reason" value="${form.reason}"><input type="hidden" name="owner" value="${form.owner}"><input type="hidden" name="days" value="${form.days}"><input type="hidden" name="by" value="${form.by}"><input type="hidden" name="confirm" value="yes"><button type="submit">${adding ? 'Quarantine it' : 'Lift it'}</button><a href="${quarantineChangePath(form.action, form)}">Cancel</a></form>`;
  return layout(title, content);
}

/** A change refused before anything was read: no key, a read key, a form another site sent. */
export function renderRefusal(title: string, message: string, signInPath?: string): string {
  return layout(
    title,
    html`<h1>${title}</h1><p class="problem" role="alert"><strong>${message}</strong>${signInPath ? html` <a href="${signInPath}">Sign in with the API key</a>.` : ''}</p>`,
  );
}

function hiddenTest(form: ChangeForm): SafeHtml {
  return html`<input type="hidden" name="action" value="${form.action}"><input type="hidden" name="project" value="${form.project}"><input type="hidden" name="suite" value="${form.testSuite}"><input type="hidden" name="test" value="${form.testCase}">`;
}

/** `2026-12-01`. */
function day(iso: string): string {
  return iso.slice(0, 10);
}

/** `in 12 days`, `3 days ago`. */
function inTime(iso: string, now: number): string {
  const ms = Date.parse(iso) - now;
  if (Number.isNaN(ms)) return '';
  if (ms <= 0) return relativeTime(iso, now);
  const days = Math.round(ms / DAY_MS);
  return days <= 1 ? (ms < DAY_MS ? 'within a day' : 'in 1 day') : `in ${days} days`;
}
