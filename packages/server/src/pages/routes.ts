import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AttachmentLedger } from '../attachments/attachment-ledger.js';
import { sendFile } from '../attachments/serve-file.js';
import { testKey } from '../ledger/quarantines.js';
import type { SqlStore } from '../ledger/sql-store.js';
import type { StoredResult } from '../ledger/store.js';
import { paths } from '../paths.js';
import { shardTimes } from '../plans/shard-times.js';
import { isInlineText, type RunFiles } from './attachments-block.js';
import { FLAKY_WINDOW, flakyOrFailing } from './flaky-or-failing.js';
import { type ProjectFlakes, renderFlakyPage } from './flaky-page.js';
import { HISTORY_RUNS, testHistory } from './history.js';
import { html, type SafeHtml } from './html.js';
import { layout } from './layout.js';
import { RESULTS_PER_PAGE, renderRunNotFoundPage, renderRunPage, SLOWEST_TESTS } from './run-page.js';
import { RUNS_PER_PAGE, renderRunsPage, runsPageNumber } from './runs-page.js';
import { streamPage } from './stream.js';
import { renderTestPage } from './test-page.js';
import { registerTraceViewer } from './trace-viewer.js';

const htmlType = 'text/html; charset=utf-8';

/** How many choices a filter lists at most; the tag filter lists the tags of recent runs. */
const MAX_CHOICES = 200;
const TAGS_FROM_RUNS = 500;
/** A test's quarantine changes its page lists, newest first. */
const TEST_CHANGES_SHOWN = 20;
/** The logs' text a run page shows at most, in all: past it, a log is a link. */
const INLINE_TEXT_PER_PAGE = 2 * 1024 * 1024;

type Query = Record<string, string | string[] | undefined>;

/**
 * Server-rendered pages for people; no script. Every page reads a bounded slice of the
 * database (a page of runs, a page of one run's results, a project's last runs), so a page
 * costs the same with ten runs or a hundred thousand, and rendering never holds the
 * database: the queries finish before the HTML is built.
 */
export function registerPages(
  app: FastifyInstance,
  store: SqlStore,
  abandonedAfterMs: number,
  files?: AttachmentLedger,
): void {
  /** A page rendered whole (a string) goes as it is; one in parts is streamed as it renders (stream.ts). */
  const send = (reply: FastifyReply, page: string | Iterable<SafeHtml>, status = 200) =>
    reply
      .code(status)
      .type(htmlType)
      .send(typeof page === 'string' ? page : streamPage(page));

  app.get<{ Querystring: Query }>(paths.runsPage, async (request, reply) => {
    const { query } = request;
    const now = Date.now();
    const states = { now, abandonedAfterMs };
    const filter = {
      project: filterValue(query.project),
      framework: filterValue(query.framework),
      tag: filterValue(query.tag),
      branch: filterValue(query.branch)?.trim() || undefined,
    };
    const matching = await store.countRuns(filter, states);
    const page = runsPageNumber(Number(first(query.page) ?? 1), matching);
    const runs = await store.runsByOffset(
      filter,
      { limit: RUNS_PER_PAGE, offset: (page - 1) * RUNS_PER_PAGE, matching },
      states,
    );
    const anyRuns = matching > 0 || (await store.anyRuns());
    const choices = {
      project: await store.choices('project', MAX_CHOICES),
      framework: await store.choices('framework', MAX_CHOICES),
      tag: await store.recentTags(MAX_CHOICES, TAGS_FROM_RUNS),
      branch: await store.recentBranches(MAX_CHOICES, TAGS_FROM_RUNS),
    };
    return send(
      reply,
      renderRunsPage({
        runs,
        matching,
        anyRuns,
        choices,
        filter,
        page,
        abandonedAfterMs,
        now,
        serverUrl: `${request.protocol}://${request.host}`,
      }),
    );
  });

  app.get<{ Params: { id: string }; Querystring: Query }>(paths.runPage, async (request, reply) => {
    const runId = request.params.id;
    const run = await store.runWithCounts(runId);
    if (!run) return send(reply, renderRunNotFoundPage(runId), 404);
    const search = filterValue(request.query.q)?.trim() || undefined;
    const status = filterValue(request.query.status);
    const narrowed = { search, status };
    const matching = await store.countResults(runId, narrowed);
    const pageCount = Math.max(1, Math.ceil(matching / RESULTS_PER_PAGE));
    const page = Math.min(Math.max(1, Math.trunc(Number(first(request.query.page) ?? 1)) || 1), pageCount);
    const results = await store.resultsByOffset(runId, narrowed, {
      limit: RESULTS_PER_PAGE,
      offset: (page - 1) * RESULTS_PER_PAGE,
    });
    // Failed tests are listed first, from every page: none when another status is chosen.
    const failedFilter = { search, status: 'failed' };
    const failedCount =
      status === undefined || status === 'failed' ? await store.countResults(runId, failedFilter) : 0;
    const failed =
      failedCount === 0
        ? []
        : await store.resultsByOffset(runId, failedFilter, { limit: RESULTS_PER_PAGE, offset: 0 });
    const slowest = await store.slowestResults(runId, narrowed, ['skipped', 'todo'], SLOWEST_TESTS);
    const shards = await shardTimes(store.db, run);
    const pageHtml = renderRunPage({
      run,
      shards,
      results,
      files: files && (await runFiles(files, runId, failed)),
      paged: { matching, failed, failedCount, slowest, page, pageCount },
      search,
      status,
      abandonedAfterMs,
      now: Date.now(),
    });
    return send(reply, pageHtml);
  });

  if (files) {
    // A run's file for the pages: under their key or cookie, served so it can run no script.
    app.get<{ Params: { id: string; sha256: string; name: string }; Querystring: Query }>(
      paths.runFile,
      async (request, reply) => {
        const { id: runId, sha256, name } = request.params;
        const notFound = () =>
          send(
            reply,
            layout(
              'No such file',
              html`<h1>No such file</h1><p>Run <code>${runId}</code> has no such file.</p>`,
            ),
            404,
          );
        if (!/^[0-9a-f]{64}$/.test(sha256)) return notFound();
        const contentType = first(request.query.type);
        return sendFile(request, reply, files, { runId, sha256, name, contentType }, notFound);
      },
    );
    registerTraceViewer(app);
  }

  app.get<{ Querystring: Query }>(paths.testPage, async (request, reply) => {
    const [project, testSuite, testCase] = ['project', 'suite', 'test'].map((name) =>
      first(request.query[name]),
    );
    if (project === undefined || testSuite === undefined || testCase === undefined) {
      const message = html`<h1>Which test?</h1><p>A test is named by its project, suite and name: <code>/test?project=…&amp;suite=…&amp;test=…</code>. Every test on a run's page links here.</p>`;
      return send(reply, layout('Which test?', message), 400);
    }
    const test = { project, testSuite, testCase };
    const { runs, results: held } = await store.lastRunsWithResults(project, HISTORY_RUNS, { test });
    const outcomes = testHistory(runs, (id) => held.get(id) ?? [], test);
    const quarantine = await store.quarantineOf(project, testSuite, testCase);
    const { changes } = await store.quarantineChanges(project, {
      key: testKey(testSuite, testCase),
      limit: TEST_CHANGES_SHOWN,
    });
    return send(reply, renderTestPage(test, outcomes, Date.now(), { quarantine, changes }));
  });

  app.get<{ Querystring: Query }>(paths.flakyPage, async (request, reply) => {
    const allProjects = (await store.choices('project', MAX_CHOICES)).sort((a, b) => a.localeCompare(b));
    const selected = filterValue(request.query.project);
    const projects: ProjectFlakes[] = [];
    for (const project of selected === undefined ? allProjects : [selected]) {
      // Only a test that failed in the window can be flaky or newly failing: the rest stay in the database.
      const { runs, results } = await store.lastRunsWithResults(project, FLAKY_WINDOW, {
        onlyTestsThatFailed: true,
      });
      const quarantined = new Map((await store.quarantines(project)).map((q) => [q.key, q]));
      projects.push({ project, ...flakyOrFailing(runs, [...results.values()].flat()), quarantined });
    }
    return send(reply, renderFlakyPage(projects, allProjects, selected));
  });
}

/** Which of the run's files arrived, and the text of the failed tests' logs the page shows, within its budget. */
async function runFiles(
  files: AttachmentLedger,
  runId: string,
  failed: readonly StoredResult[],
): Promise<RunFiles> {
  const received = await files.receivedHashes(runId);
  const texts = new Map<string, string>();
  let budget = INLINE_TEXT_PER_PAGE;
  for (const result of failed) {
    for (const file of result.attachments ?? []) {
      if (!received.has(file.sha256) || texts.has(file.sha256) || !isInlineText(file) || file.size > budget)
        continue;
      budget -= file.size;
      const chunks: Buffer[] = [];
      for await (const chunk of files.read(file.sha256, file.size)) chunks.push(chunk as Buffer);
      texts.set(file.sha256, Buffer.concat(chunks).toString('utf8'));
    }
  }
  return { received, texts };
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
