import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Ledger } from '../ledger/ledger.js';
import type { StoredRun } from '../ledger/store.js';
import { paths } from '../paths.js';
import { FLAKY_WINDOW, flakyOrFailing } from './flaky-or-failing.js';
import { type ProjectFlakes, renderFlakyPage } from './flaky-page.js';
import { HISTORY_RUNS, testHistory } from './history.js';
import { html, type SafeHtml } from './html.js';
import { layout } from './layout.js';
import { renderRunNotFoundPage, renderRunPage } from './run-page.js';
import { renderRunsPage } from './runs-page.js';
import { streamPage } from './stream.js';
import { renderTestPage } from './test-page.js';

const htmlType = 'text/html; charset=utf-8';

type Query = Record<string, string | string[] | undefined>;

/** Server-rendered pages for people; no key needed, no script. */
export function registerPages(
  app: FastifyInstance,
  ledger: Ledger,
  statuses: readonly string[],
  abandonedAfterMs: number,
): void {
  const { store } = ledger;
  /** A page rendered whole (a string) goes as it is; one in parts is streamed as it renders (stream.ts). */
  const send = (reply: FastifyReply, page: string | Iterable<SafeHtml>, status = 200) =>
    reply
      .code(status)
      .type(htmlType)
      .send(typeof page === 'string' ? page : streamPage(page));
  /** A project's runs, oldest first, the last `count` of them. */
  const lastRuns = (project: string, count: number): StoredRun[] =>
    store
      .runs()
      .filter((run) => run.project === project)
      .slice(-count);

  app.get<{ Querystring: Query }>(paths.runsPage, async (request, reply) => {
    const { query } = request;
    const page = renderRunsPage({
      runs: store.runs().reverse(),
      filter: {
        project: filterValue(query.project),
        framework: filterValue(query.framework),
        tag: filterValue(query.tag),
      },
      page: Number(first(query.page) ?? 1),
      withCounts: (run) => store.withCounts(run, statuses),
      abandonedAfterMs,
      now: Date.now(),
      serverUrl: `${request.protocol}://${request.host}`,
    });
    return send(reply, page);
  });

  app.get<{ Params: { id: string }; Querystring: Query }>(paths.runPage, async (request, reply) => {
    const run = store.run(request.params.id);
    if (!run) return send(reply, renderRunNotFoundPage(request.params.id), 404);
    const page = renderRunPage({
      run: store.withCounts(run, statuses),
      results: store.resultsOf(run.id),
      search: filterValue(request.query.q)?.trim() || undefined,
      status: filterValue(request.query.status),
      abandonedAfterMs,
      now: Date.now(),
    });
    return send(reply, page);
  });

  app.get<{ Querystring: Query }>(paths.testPage, async (request, reply) => {
    const [project, testSuite, testCase] = ['project', 'suite', 'test'].map((name) =>
      first(request.query[name]),
    );
    if (project === undefined || testSuite === undefined || testCase === undefined) {
      const message = html`<h1>Which test?</h1><p>A test is named by its project, suite and name: <code>/test?project=…&amp;suite=…&amp;test=…</code>. Every test on a run's page links here.</p>`;
      return send(reply, layout('Which test?', message), 400);
    }
    const test = { project, testSuite, testCase };
    const outcomes = testHistory(lastRuns(project, HISTORY_RUNS), (id) => store.resultsOf(id), test);
    return send(reply, renderTestPage(test, outcomes, Date.now()));
  });

  app.get<{ Querystring: Query }>(paths.flakyPage, async (request, reply) => {
    // One copy of the runs for the whole page, each project's in arrival order.
    const runsByProject = new Map<string, StoredRun[]>();
    for (const run of store.runs()) {
      const runs = runsByProject.get(run.project);
      if (runs) runs.push(run);
      else runsByProject.set(run.project, [run]);
    }
    const allProjects = [...runsByProject.keys()].sort((a, b) => a.localeCompare(b));
    const selected = filterValue(request.query.project);
    const projects: ProjectFlakes[] = (selected === undefined ? allProjects : [selected]).map((project) => {
      const runs = (runsByProject.get(project) ?? []).slice(-FLAKY_WINDOW);
      return {
        project,
        ...flakyOrFailing(
          runs,
          runs.flatMap((run) => store.resultsOf(run.id)),
        ),
      };
    });
    return send(reply, renderFlakyPage(projects, allProjects, selected));
  });
}

/** The first value of a query parameter given once or more. */
function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A filter's value; an empty one (the form's "all") filters nothing. */
function filterValue(value: string | string[] | undefined): string | undefined {
  const text = first(value);
  return text === '' ? undefined : text;
}
